export {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
} from './assert-supported-json-schema'
export {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type SchemaValidator,
} from './compile-validator'
export { pyComment, pyDocstring, quotedString, tsDocComment } from './doc-comments'
export {
  isToolsError,
  JsonBudgetError,
  type JsonBudgetLimit,
  LosslessJsonError,
  SchemaDefinitionError,
  TOOLS_SCHEMA_ERROR_CODES,
  ToolArgsError,
  ToolsError,
  UnsupportedJsonSchemaError,
} from './errors'
export { isPythonFieldName, jsonSchemaToPy } from './json-schema-to-py'
export { jsonSchemaToTs } from './json-schema-to-ts'
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
export {
  type JsonSnapshot,
  type SnapshotJsonOptions,
  snapshotJson,
  snapshotJsonMeasured,
} from './snapshot-json'
export type {
  JsonArray,
  JsonObject,
  JsonScalar,
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
