import {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  type SchemaValidator,
} from './compile-validator'
import type { ParameterSchemaSpec } from './schema-spec'
import type { JsonSchema, SchemaViolation } from './types'

const argsCache = new WeakMap<object, SchemaValidator>()
const nodeCache = new WeakMap<object, SchemaValidator>()

/**
 * Validates tool arguments against a `ParameterSchemaSpec` (the implicit open parameter object).
 * Returns path-qualified violations, empty when valid; applies no defaults. For a compiled or
 * raw JSON Schema use `validateJsonSchemaValue`. The compiled validator is cached per spec
 * object, so do not mutate a spec after use.
 */
export function validateArgs(spec: ParameterSchemaSpec, value: unknown): SchemaViolation[] {
  let validator = argsCache.get(spec)
  if (validator === undefined) {
    validator = compileParameterSpecValidator(spec)
    argsCache.set(spec, validator)
  }
  return validator(value)
}

const booleanValidators = new Map<boolean, SchemaValidator>()

/**
 * Validates `value` against a JSON Schema (objects are open unless `additionalProperties` says
 * otherwise; `{}` and `true` accept any JSON value and nothing else; `format` is an annotation).
 * Throws `UnsupportedJsonSchemaError` for a malformed schema; otherwise returns path-qualified
 * violations. Cached per schema object, so do not mutate a schema after use.
 */
export function validateJsonSchemaValue(node: JsonSchema, value: unknown): SchemaViolation[] {
  const cache = typeof node === 'boolean' ? booleanValidators : nodeCache
  let validator = cache.get(node as object & boolean)
  if (validator === undefined) {
    validator = compileJsonSchemaValidator(node)
    cache.set(node as object & boolean, validator)
  }
  return validator(value)
}
