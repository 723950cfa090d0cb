// Public API of @dsh/tools-core. Explicit named re-exports only; no logic here.

export type {
  InferArgs,
  InferValue,
  JsonArray,
  JsonBudgetLimit,
  JsonObject,
  JsonSchemaNode,
  JsonSnapshot,
  JsonValue,
  MissingAdditionalProperties,
  ObjectJsonSchema,
  ParameterFieldSpec,
  ParameterSchemaSpec,
  ProviderDialect,
  ProviderSchema,
  ProviderSchemaChange,
  ProviderSchemaProblem,
  SchemaViolation,
  SnapshotJsonOptions,
  ValueSchemaSpec,
} from '@dsh/tools-schema'
// Plugin configs declared in the schema DSL (issue 26): re-exported so a plugin needs only tools-core.
export {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
  type ConfigObjectSpec,
  type ConfigProblem,
  type ConfigSchema,
  type ConfigSchemaIssue,
  type ConfigSchemaResult,
  type ConfigValueSpec,
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  configSchema,
  type HostSchemaSpec,
  type InferConfig,
  type InferConfigInput,
  isToolsError,
  JsonBudgetError,
  jsonSchemaToPy,
  jsonSchemaToTs,
  LosslessJsonError,
  OPENAI_STRICT_LIMITS,
  PROVIDER_DIALECTS,
  parameterSchemaSpecToJsonSchema,
  providerArgsToCanonical,
  SchemaDefinitionError,
  snapshotJson,
  snapshotJsonMeasured,
  ToolArgsError,
  ToolsError,
  toProviderSchema,
  UnsupportedJsonSchemaError,
  validateArgs,
  validateJsonSchemaValue,
  valueSchemaSpecToJsonSchema,
} from '@dsh/tools-schema'
export { TOOL_SEARCH_TOOL_NAME } from './deferred/tool-search-tool'
export {
  type BodyResult,
  type DefinedValue,
  defineTool,
  type JsonSchemaToolSpec,
  type StandardBody,
  type StandardToolSpec,
  type StandardValue,
  type ToolSpec,
} from './define-tool'
// Durable approvals and exactly-once resume (SPEC §13.2).
export {
  type ApprovalDecision,
  ApprovalState,
  type ApprovalTicketData,
  mintTicket,
  type ToolPendingApproval,
  ticketAgent,
} from './durable/approval-ticket'
export { canonicalJson, sha256Hex } from './durable/canonical-json'
export type { DurableApprovalService } from './durable/durable-approval'
export type { ResumeOptions } from './durable/resume-ticket'
export { resultFromStore, storedResult } from './durable/stored-result'
// Resuming tickets of other kinds (SPEC §13.3: Code Mode run tickets) through ctx.tools.resume.
export type { TicketResumeOptions, TicketResumer } from './durable/ticket-resumer'
export { ticketKind } from './durable/ticket-resumer'
export { argumentsHash, toolFingerprint } from './durable/tool-fingerprint'
export {
  AbortedBeforeDispatchError,
  ApprovalExpiredError,
  ApprovalInvalidError,
  ApprovalPendingError,
  DeniedError,
  InvalidOutputError,
  OutcomeUnknownError,
  PostPolicyError,
  RuntimeDisposedError,
  StoreUnavailableError,
  ToolAbortedError,
  ToolAssemblyError,
  ToolErrorCode,
  ToolFailedError,
  ToolRegistrationError,
  ToolTimeoutError,
  UnknownToolError,
} from './errors'
export { closestNames } from './internal/closest-names'
export { type LinkedSignal, linkSignals } from './link-signals'
export { MAX_PROGRESS_MESSAGE_LENGTH } from './pipeline/progress-update'
export { failureOf } from './pipeline/results'
export { DEFAULT_VALUE_LIMITS, type ValueLimits } from './pipeline/value-limits'
export type {
  FileDiff,
  NumberedLine,
  SearchFileMatches,
  ToolCallView,
  ToolLocation,
  ToolResultView,
} from './presentation-types'
export { RESERVED_TOOL_NAME } from './registry'
export type { ResultBudgetConfig } from './result-budget/config'
export { READ_RESULT_TOOL_NAME } from './result-budget/read-result-tool'
export { default, default as ToolRuntime, type ToolRuntimeConfig } from './runtime'
export { CallScheduler, type ScheduledJob } from './schedule/call-scheduler'
export { createScope, scopeOf, type ToolScope } from './scope'
export { createScopedEmitter, type ScopedEmitter, type ScopedEmitterOptions } from './scoped-emitter'
export {
  isStandardSchema,
  type StandardInput,
  type StandardIssue,
  type StandardJsonSchemaConverter,
  type StandardOutput,
  type StandardResult,
  type StandardSchemaV1,
} from './standard-schema'
export { storeConformanceCases } from './store/conformance/store-conformance-cases'
// The store conformance kit (SPEC §13.1).
export type {
  OpenedToolStateStore,
  StoreConformanceCase,
  StoreConformanceHarness,
} from './store/conformance/store-conformance-harness'
export { MemoryToolStore } from './store/memory-tool-store'
export type {
  NewStoredRecord,
  StoredLease,
  StoredRecord,
  StoredRecordChange,
  StoredRecordKind,
  StoredRecordQuery,
  StoredRecordRef,
  ToolStateStore,
} from './store/tool-state-store'
export type {
  AdditionalContext,
  ApprovalAnswer,
  ApprovalRequestDetails,
  ApprovalService,
  ArgumentsParse,
  AssembleOptions,
  CodeModeProvider,
  ContentPart,
  ExecuteBatchOptions,
  ImageContentPart,
  NativeToolSpec,
  PostToolDecision,
  PreToolDecision,
  PromptSection,
  ScopeKey,
  TextContentPart,
  ToolAnnotations,
  ToolAssembly,
  ToolContent,
  ToolDeferral,
  ToolDefinition,
  ToolDispatchExecution,
  ToolExecution,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolExecutionToken,
  ToolFailure,
  ToolFailureInfo,
  ToolGuard,
  ToolNestedApproval,
  ToolOutputDeclaration,
  ToolPresentationMode,
  ToolProgressUpdate,
  ToolRestriction,
  ToolResultRecord,
  ToolRunContext,
  ToolSchema,
  ToolStageEvent,
  ToolSuccess,
} from './types'
