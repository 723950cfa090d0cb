import { findJsonProblem } from './json-check'
import { findDuplicate, isScalarValue } from './json-equal'
import { codePointLength } from './keyword-messages'
import { isMultipleOf } from './multiple-of'

/**
 * What the generated checks call besides built-ins, under the short names the generated text
 * uses. Each is a small function V8 can inline; none runs an accessor of the value.
 */

/** Thrown by generated code when recursion gets too deep; means "ask the interpreter". */
export const BAIL = Symbol('bail')

function isJson(value: unknown): boolean {
  return findJsonProblem(value) === undefined
}

/**
 * An object schema accepts only objects JSON can produce (Object or null prototype); callers
 * have excluded arrays. Symbol keys of such an object are not looked at (README: typed objects).
 */
function hasJsonObjectPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** `Object.keys(value).length` without building the array. */
function countOwnKeys(value: object): number {
  let count = 0
  for (const key in value) if (Object.hasOwn(value, key)) count++
  return count
}

// Below this length `uniqueItems` of scalars compares pairwise: cheaper than building two maps.
const PAIRWISE_UNIQUE = 16

function allUnique(items: unknown[]): boolean {
  const length = items.length
  if (length <= PAIRWISE_UNIQUE && items.every(isScalarValue)) {
    for (let j = 1; j < length; j++) for (let i = 0; i < j; i++) if (items[i] === items[j]) return false
    return true
  }
  return findDuplicate(items) === undefined
}

/** An own member's value, or {@link BAIL} when it is an accessor (never invoked). */
function ownDataOrBail(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key)
  return descriptor === undefined || !('value' in descriptor) ? BAIL : descriptor.value
}

/** The bindings of the generated code: name in the generated text → value. */
export const JIT_RUNTIME: Readonly<Record<string, unknown>> = {
  B: BAIL,
  H: Object.prototype.hasOwnProperty,
  IJ: isJson,
  PO: hasJsonObjectPrototype,
  NK: countOwnKeys,
  CP: codePointLength,
  GP: Object.getPrototypeOf,
  AP: Array.prototype,
  UQ: allUnique,
  DV: ownDataOrBail,
  MO: isMultipleOf,
}
