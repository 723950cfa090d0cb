import { assertSupportedJsonSchema } from './assert-supported-json-schema'
import { buildChecker } from './internal/build-checker'
import { isPlainObject } from './internal/describe'
import { runChecker } from './internal/run-checker'
import type { ParameterSchemaSpec } from './schema-spec'
import type { JsonSchemaNode, SchemaViolation } from './types'
import { parameterSchemaSpecToJsonSchema } from './value-schema-spec-to-json-schema'

/** A compiled validator: returns the violations of `value` (empty when valid). */
export type SchemaValidator = (value: unknown) => SchemaViolation[]

/**
 * True when `schema` should be read as a compiled `JsonSchemaNode` rather than a
 * `ParameterSchemaSpec`: its `type` is a string, or one of its members is not a plain object
 * (a parameter spec maps every field name to a field spec object).
 */
export function isJsonSchemaNodeLike(schema: object): boolean {
  if (typeof (schema as { type?: unknown }).type === 'string') return true
  for (const key of Object.keys(schema)) {
    if (!isPlainObject((schema as Record<string, unknown>)[key])) return true
  }
  return false
}

/**
 * Compiles a raw `JsonSchemaNode` (asserted with `assertSupportedJsonSchema`) into a validator
 * that reuses the pre-analysed schema (property maps, required sets, enum sets) on every call.
 */
export function compileJsonSchemaValidator(node: JsonSchemaNode): SchemaValidator {
  assertSupportedJsonSchema(node)
  const checker = buildChecker(node)
  return (value) => runChecker(checker, value)
}

/**
 * Compiles a `ParameterSchemaSpec` or a `JsonSchemaNode` once into a fast, stack-safe validator.
 * A spec compiles through `parameterSchemaSpecToJsonSchema` (implicit open root); a node is
 * asserted with `assertSupportedJsonSchema`. Throws `SchemaDefinitionError` /
 * `UnsupportedJsonSchemaError` for bad schemas.
 */
export function compileValidator(schema: ParameterSchemaSpec | JsonSchemaNode): SchemaValidator {
  if (isJsonSchemaNodeLike(schema)) return compileJsonSchemaValidator(schema as JsonSchemaNode)
  const node = parameterSchemaSpecToJsonSchema(schema as ParameterSchemaSpec)
  const checker = buildChecker(node)
  return (value) => runChecker(checker, value)
}
