import { describeType } from './describe'
import { currentInterner } from './json-intern'

/**
 * Deep "is this JSON?" check for the parts of a value no schema keyword constrains (any-JSON
 * nodes, extra keys of open objects, arrays without `items`). The validator must not accept a
 * Map, a Date or a sparse array just because nothing narrower was declared there.
 */

/** Where a value stops being JSON: path segments below the checked value, and why. */
export interface JsonProblem {
  readonly segments: readonly (string | number)[]
  readonly message: string
}

/** Why a non-object value is not JSON, or `undefined` when it is. -0 is a JSON number (0). */
function scalarProblem(value: unknown): string | undefined {
  const kind = typeof value
  if (
    value === null ||
    kind === 'string' ||
    kind === 'boolean' ||
    (kind === 'number' && Number.isFinite(value))
  )
    return undefined
  return `expected JSON value, got ${describeType(value)}`
}

/** Name of a non-plain object for messages: `a Map`, `a class instance`. */
export function describeObjectKind(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === 'Object' ? 'a class instance' : `a ${tag}`
}

/** True for an object JSON can produce: Object.prototype or null prototype, not an array. */
export function isPlainJsonObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && !Array.isArray(value)
}

interface Frame {
  readonly value: unknown
  readonly parent: Frame | undefined
  readonly key: string | number | undefined
}

function segmentsOf(frame: Frame): (string | number)[] {
  const out: (string | number)[] = []
  for (let cursor: Frame | undefined = frame; cursor?.key !== undefined; cursor = cursor.parent) {
    out.push(cursor.key)
  }
  return out.reverse()
}

/** Own members of a container as frames, or a problem (accessor, symbol key, hole, extra key). */
function membersOf(value: object, frame: Frame, out: Frame[]): string | undefined {
  const isArray = Array.isArray(value)
  if (isArray ? Object.getPrototypeOf(value) !== Array.prototype : !isPlainJsonObject(value)) {
    return `expected JSON value, got ${isArray ? 'an array subclass' : describeObjectKind(value)}`
  }
  const keys = Reflect.ownKeys(value)
  const length = isArray ? (value as unknown[]).length : 0
  if (isArray && keys.length !== length + 1) {
    for (let i = 0; i < length; i++) {
      if (!Object.hasOwn(value, i)) return `expected JSON value, got a sparse array (hole at index ${i})`
    }
    return 'expected JSON value, got an array with non-index properties'
  }
  for (const key of keys) {
    if (typeof key === 'symbol') return `expected JSON value, got symbol key ${String(key)}`
    if (isArray && key === 'length') continue
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    if (!('value' in descriptor)) return `expected JSON value, got accessor property ${JSON.stringify(key)}`
    if (!descriptor.enumerable)
      return `expected JSON value, got non-enumerable property ${JSON.stringify(key)}`
    out.push({ value: descriptor.value, parent: frame, key: isArray ? Number(key) : key })
  }
  return undefined
}

/**
 * The first place where `value` is not a JSON value, or `undefined`. Never invokes accessors;
 * iterative (any depth); cycles are problems; a shared, already verified subtree is not walked
 * again, so a reference DAG costs its number of distinct nodes — and within one validation a
 * subtree verified by an earlier call is not walked again either (json-intern).
 */
export function findJsonProblem(
  value: unknown,
  verified: Set<object> = currentInterner().verifiedJson,
): JsonProblem | undefined {
  if (typeof value !== 'object' || value === null) {
    const message = scalarProblem(value)
    return message === undefined ? undefined : { segments: [], message }
  }
  const stack: (Frame | { readonly exit: object })[] = [{ value, parent: undefined, key: undefined }]
  const active = new Set<object>()
  const members: Frame[] = []
  while (stack.length > 0) {
    const frame = stack.pop()!
    if ('exit' in frame) {
      active.delete(frame.exit)
      verified.add(frame.exit)
      continue
    }
    const current = frame.value
    if (typeof current !== 'object' || current === null) {
      const message = scalarProblem(current)
      if (message !== undefined) return { segments: segmentsOf(frame), message }
      continue
    }
    if (verified.has(current)) continue
    if (active.has(current))
      return { segments: segmentsOf(frame), message: 'expected JSON value, got a cycle' }
    members.length = 0
    const message = membersOf(current, frame, members)
    if (message !== undefined) return { segments: segmentsOf(frame), message }
    active.add(current)
    stack.push({ exit: current })
    for (let i = members.length - 1; i >= 0; i--) stack.push(members[i]!)
  }
  return undefined
}
