import { assertSupportedJsonSchema } from './assert-supported-json-schema'
import { buildChecker } from './internal/build-checker'
import { runChecker } from './internal/run-checker'
import type { ParameterSchemaSpec, ValueSchemaSpec } from './schema-spec'
import type { JsonSchemaNode, SchemaViolation } from './types'
import {
  parameterSchemaSpecToJsonSchema,
  valueSchemaSpecToJsonSchema,
} from './value-schema-spec-to-json-schema'

/** A compiled validator: returns the violations of `value` (empty when valid). */
export type SchemaValidator = (value: unknown) => SchemaViolation[]

// Each entry point takes exactly one kind of schema: `{}` is both an empty parameter spec and
// the any-JSON node, so no function here may look at a schema and decide what it is.

function compileNode(node: JsonSchemaNode): SchemaValidator {
  const checker = buildChecker(node)
  return (value) => runChecker(checker, value)
}

/**
 * Compiles a raw `JsonSchemaNode` of the enforced subset (asserted with
 * `assertSupportedJsonSchema`; throws `UnsupportedJsonSchemaError` outside it) into a validator
 * that reuses the pre-analysed schema (property maps, required sets, enum sets) on every call.
 * `{}` accepts any JSON value.
 */
export function compileJsonSchemaValidator(node: JsonSchemaNode): SchemaValidator {
  assertSupportedJsonSchema(node)
  return compileNode(node)
}

/**
 * Compiles a `ParameterSchemaSpec` (the implicit, open parameter object; `{}` is an object with
 * no declared fields) through `parameterSchemaSpecToJsonSchema`. Throws `SchemaDefinitionError`.
 */
export function compileParameterSpecValidator(spec: ParameterSchemaSpec): SchemaValidator {
  return compileNode(parameterSchemaSpecToJsonSchema(spec))
}

/**
 * Compiles a `ValueSchemaSpec` (any JSON root; `{ type: 'json' }` accepts any JSON value)
 * through `valueSchemaSpecToJsonSchema`. Throws `SchemaDefinitionError`.
 */
export function compileValueSpecValidator(spec: ValueSchemaSpec): SchemaValidator {
  return compileNode(valueSchemaSpecToJsonSchema(spec))
}
