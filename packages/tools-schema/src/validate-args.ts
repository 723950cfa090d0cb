import { compileJsonSchemaValidator, compileValidator, type SchemaValidator } from './compile-validator'
import type { ParameterSchemaSpec } from './schema-spec'
import type { JsonSchemaNode, SchemaViolation } from './types'

const argsCache = new WeakMap<object, SchemaValidator>()
const nodeCache = new WeakMap<object, SchemaValidator>()

/**
 * Validates tool arguments against a `ParameterSchemaSpec` (implicit open root) or a compiled
 * `JsonSchemaNode`. Returns path-qualified violations, empty when valid; applies no defaults.
 * The compiled validator is cached per schema object, so do not mutate a schema after use.
 */
export function validateArgs(
  schema: ParameterSchemaSpec | JsonSchemaNode,
  value: unknown,
): SchemaViolation[] {
  let validator = argsCache.get(schema)
  if (validator === undefined) {
    validator = compileValidator(schema)
    argsCache.set(schema, validator)
  }
  return validator(value)
}

/**
 * Validates `value` against a raw `JsonSchemaNode` of the enforced subset (objects are open
 * unless `additionalProperties: false`). Throws `UnsupportedJsonSchemaError` for a schema outside
 * the subset; otherwise returns path-qualified violations. Cached per schema object.
 */
export function validateJsonSchemaValue(node: JsonSchemaNode, value: unknown): SchemaViolation[] {
  let validator = nodeCache.get(node)
  if (validator === undefined) {
    validator = compileJsonSchemaValidator(node)
    nodeCache.set(node, validator)
  }
  return validator(value)
}
