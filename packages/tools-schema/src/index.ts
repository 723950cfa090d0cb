export {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
} from './assert-supported-json-schema'
export {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type JsonSchemaValidatorOptions,
  type SchemaValidator,
} from './compile-validator'
export { pyComment, pyDocstring, quotedString, tsDocComment } from './doc-comments'
export {
  isToolsError,
  LosslessJsonError,
  SchemaDefinitionError,
  TOOLS_SCHEMA_ERROR_CODES,
  ToolArgsError,
  ToolsError,
  UnsupportedJsonSchemaError,
} from './errors'
export { isPythonFieldName, jsonSchemaToPy } from './json-schema-to-py'
export { jsonSchemaToTs } from './json-schema-to-ts'
export { lintSchema, type SchemaLint } from './lint-schema'
export { type NormalizeSchemaOptions, normalizeSchema } from './normalize-schema'
export {
  createPyRenderContext,
  type PyRenderContext,
  type PyRenderContextOptions,
  toPythonClassName,
} from './py-render-context'
export type {
  ArraySchemaSpec,
  BooleanSchemaSpec,
  InferArgs,
  InferValue,
  IntegerSchemaSpec,
  JsonAnySchemaSpec,
  NullSchemaSpec,
  NumberSchemaSpec,
  ObjectSchemaSpec,
  OneOfSchemaSpec,
  ParameterFieldSpec,
  ParameterSchemaSpec,
  SchemaSpecAnnotations,
  StringSchemaSpec,
  ValueSchemaSpec,
} from './schema-spec'
export { snapshotJson } from './snapshot-json'
export type {
  JsonArray,
  JsonObject,
  JsonScalar,
  JsonSchema,
  JsonSchemaNode,
  JsonSchemaTypeName,
  JsonValue,
  ObjectJsonSchema,
  SchemaViolation,
} from './types'
export { validateArgs, validateJsonSchemaValue } from './validate-args'
export {
  parameterSchemaSpecToJsonSchema,
  valueSchemaSpecToJsonSchema,
} from './value-schema-spec-to-json-schema'
