import {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  type SchemaValidator,
} from './compile-validator'
import type { ParameterSchemaSpec } from './schema-spec'
import type { JsonSchemaNode, SchemaViolation } from './types'

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

/**
 * Validates `value` against a raw `JsonSchemaNode` of the enforced subset (objects are open
 * unless `additionalProperties: false`; `{}` accepts any JSON value and nothing else). Throws
 * `UnsupportedJsonSchemaError` for a schema outside the subset; otherwise returns path-qualified
 * violations. Cached per schema object.
 */
export function validateJsonSchemaValue(node: JsonSchemaNode, value: unknown): SchemaViolation[] {
  let validator = nodeCache.get(node)
  if (validator === undefined) {
    validator = compileJsonSchemaValidator(node)
    nodeCache.set(node, validator)
  }
  return validator(value)
}
