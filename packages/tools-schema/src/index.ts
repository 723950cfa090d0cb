export {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
} from './assert-supported-json-schema'
export { checkGeminiSchema } from './check-gemini-schema'
export {
  checkOpenAiStrictSchema,
  OPENAI_STRICT_LIMITS,
  type ProviderSchemaProblem,
} from './check-openai-strict-schema'
export type {
  CheckParameterSpec,
  CheckValueSpec,
  MissingAdditionalProperties,
  ParameterSchemaSpecInput,
  ValueSchemaSpecInput,
} from './check-spec'
export {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type JsonSchemaValidatorOptions,
  type SchemaValidator,
} from './compile-validator'
export {
  type ConfigJsonSchemaTarget,
  type ConfigProblem,
  type ConfigSchema,
  type ConfigSchemaIssue,
  type ConfigSchemaOptions,
  type ConfigSchemaResult,
  configSchema,
} from './config-schema'
export type {
  ConfigAnyOfSpec,
  ConfigArraySpec,
  ConfigFieldSpec,
  ConfigJsonValue,
  ConfigObjectSpec,
  ConfigOneOfSpec,
  ConfigSpecAnnotations,
  ConfigValueSpec,
  HostSchemaSpec,
  InferConfig,
  InferConfigInput,
  RecordSchemaSpec,
} from './config-spec'
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
export { lintSchema, type SchemaLint } from './lint-schema'
export { type NormalizeSchemaOptions, normalizeSchema } from './normalize-schema'
export { providerArgsToCanonical } from './provider-args-to-canonical'
export {
  createPyRenderContext,
  type PyRenderContext,
  type PyRenderContextOptions,
  toPythonClassName,
} from './py-render-context'
export type {
  AnyOfSchemaSpec,
  ArraySchemaSpec,
  ArraySpecBounds,
  BooleanSchemaSpec,
  InferArgs,
  InferValue,
  IntegerSchemaSpec,
  JsonAnySchemaSpec,
  NullSchemaSpec,
  NumberSchemaSpec,
  NumberSpecBounds,
  ObjectSchemaSpec,
  OneOfSchemaSpec,
  ParameterFieldSpec,
  ParameterSchemaSpec,
  SchemaSpecAnnotations,
  SpecFormat,
  StringSchemaSpec,
  StringSpecBounds,
  ValueSchemaSpec,
} from './schema-spec'
export {
  type JsonSnapshot,
  type SnapshotJsonOptions,
  snapshotJson,
  snapshotJsonMeasured,
} from './snapshot-json'
export { type SnapshotJsonTextOptions, snapshotJsonText } from './snapshot-json-text'
export {
  PROVIDER_DIALECTS,
  type ProviderDialect,
  type ProviderSchema,
  type ProviderSchemaChange,
  toProviderSchema,
} from './to-provider-schema'
export {
  createTsRenderContext,
  type TsRenderContext,
  type TsRenderContextOptions,
} from './ts-render-context'
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
