/**
 * The bounds of the schema DSL (`minimum`, `maxLength`, `pattern`, `format`, `minItems`, …):
 * which spec types may carry which bound, the checks on their values, and their copy into the
 * compiled JSON Schema node, where the validator enforces them like any other keyword.
 */

import { SchemaDefinitionError, UnsupportedJsonSchemaError } from '../errors'
import type { JsonSchemaNode } from '../types'
import { describeScalar } from './describe'
import { FORMAT_CHECKS } from './formats'
import { joinPath } from './path'
import { compilePattern } from './read-keywords'

type ValueCheck = 'finite' | 'positive' | 'count' | 'boolean' | 'pattern' | 'format'

const NUMBER_BOUNDS: Readonly<Record<string, ValueCheck>> = {
  minimum: 'finite',
  maximum: 'finite',
  exclusiveMinimum: 'finite',
  exclusiveMaximum: 'finite',
  multipleOf: 'positive',
}
const STRING_BOUNDS: Readonly<Record<string, ValueCheck>> = {
  minLength: 'count',
  maxLength: 'count',
  pattern: 'pattern',
  format: 'format',
}
const ARRAY_BOUNDS: Readonly<Record<string, ValueCheck>> = {
  minItems: 'count',
  maxItems: 'count',
  uniqueItems: 'boolean',
}

/** Bound keyword → its check, per DSL type. Types not listed take no bounds. */
const BOUNDS_BY_TYPE: Readonly<Record<string, Readonly<Record<string, ValueCheck>>>> = {
  number: NUMBER_BOUNDS,
  integer: NUMBER_BOUNDS,
  string: STRING_BOUNDS,
  array: ARRAY_BOUNDS,
}

/** The types each bound applies to, for the error on a bound placed on another type. */
const TYPES_OF_BOUND: ReadonlyMap<string, string> = new Map([
  ...Object.keys(NUMBER_BOUNDS).map((key) => [key, 'number and integer specs'] as const),
  ...Object.keys(STRING_BOUNDS).map((key) => [key, 'string specs'] as const),
  ...Object.keys(ARRAY_BOUNDS).map((key) => [key, 'array specs'] as const),
])

/** The `format` names the DSL accepts: exactly those `{ formats: 'assert' }` can check. */
export const SPEC_FORMATS: readonly string[] = Object.keys(FORMAT_CHECKS)

/** Lower/upper pairs whose crossing leaves no accepted value (an authoring mistake). */
const PAIRS = [
  ['minimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
] as const

/** True when `key` is a bound of some DSL type (so `kind` not taking it gets a pointed error). */
export function isSpecBound(key: string): boolean {
  return TYPES_OF_BOUND.has(key)
}

/** True when the spec type `kind` takes the bound `key`. */
export function takesBound(kind: string, key: string): boolean {
  return BOUNDS_BY_TYPE[kind]?.[key] !== undefined
}

/** The error for a bound on a type it does not apply to, naming both. */
export function misplacedBound(kind: string, key: string, path: string): SchemaDefinitionError {
  return new SchemaDefinitionError(
    joinPath(path, key),
    `${key} applies to ${TYPES_OF_BOUND.get(key)}, not to ${kind} specs`,
  )
}

function checkValue(check: ValueCheck, key: string, value: unknown, path: string): void {
  const at = joinPath(path, key)
  const fail = (expected: string) =>
    new SchemaDefinitionError(at, `${key} must be ${expected}, got ${describeScalar(value)}`)
  if (check === 'boolean') {
    if (typeof value !== 'boolean') throw fail('a boolean')
  } else if (check === 'format') {
    if (typeof value !== 'string' || !SPEC_FORMATS.includes(value))
      throw fail(`one of ${SPEC_FORMATS.join(', ')}`)
  } else if (check === 'pattern') {
    if (typeof value !== 'string') throw fail('a string')
    try {
      compilePattern(value, at)
    } catch (error) {
      // The same gate as a raw JSON Schema `pattern`, reported as a DSL definition error.
      if (error instanceof UnsupportedJsonSchemaError)
        throw new SchemaDefinitionError(at, error.message.slice(at.length + 2))
      throw error
    }
  } else if (typeof value !== 'number' || !Number.isFinite(value) || Object.is(value, -0)) {
    throw fail(check === 'count' ? 'a non-negative integer' : 'a finite number')
  } else if (check === 'count' && !(Number.isSafeInteger(value) && value >= 0)) {
    throw fail('a non-negative integer')
  } else if (check === 'positive' && !(value > 0)) {
    throw fail('greater than 0')
  }
}

/**
 * Checks the bounds of one spec of type `kind` and copies them onto `node`. The caller has
 * already refused bounds the type does not take.
 */
export function copySpecBounds(
  kind: string,
  spec: ReadonlyMap<string, unknown>,
  path: string,
  node: JsonSchemaNode,
): void {
  const bounds = BOUNDS_BY_TYPE[kind]
  if (bounds === undefined) return
  for (const [key, check] of Object.entries(bounds)) {
    if (!spec.has(key)) continue
    checkValue(check, key, spec.get(key), path)
    node[key] = spec.get(key)
  }
  for (const [low, high] of PAIRS) {
    const min = node[low]
    const max = node[high]
    if (typeof min === 'number' && typeof max === 'number' && min > max)
      throw new SchemaDefinitionError(
        joinPath(path, low),
        `${low} ${min} is greater than ${high} ${max}: no value would be accepted`,
      )
  }
}
