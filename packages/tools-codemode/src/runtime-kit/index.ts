// Public API of @dsh/tools-codemode/runtime-kit: the pieces every CodeRuntime shares.
// Explicit named re-exports only; no logic here.
export { awaitBoot, type BootFailure, type BootOutcome, type WorkerEvents } from './await-boot'
export {
  type BusyTimeSource,
  type LoopUtilization,
  type RunBudget,
  startBudgetWatchdog,
} from './budget-watchdog'
export { CodeRuntimeService, type ServedCodeRuntime } from './code-runtime-service'
export {
  type ConfigCheck,
  type ConfigSchema,
  checkConfig,
  configSchema,
  MAX_TIMER_MS,
  resolveConfig,
} from './config-check'
export { cutToLimit } from './cut-to-limit'
export { DoneStatus, failureKindOf } from './done-status'
export { JSON_CHARS } from './json-chars'
export { type JsonValueIssue, type JsonValueLimits, jsonTextExceeds, jsonValueIssue } from './json-text-bound'
export {
  DEFAULT_JSON_SHAPE_LIMITS,
  type JsonShapeIssue,
  type JsonShapeLimits,
  jsonShapeMessage,
  jsonTextShapeIssue,
  readValueLimits,
  type ValueLimits,
  valueLimitMessage,
  valueTextIssue,
} from './json-text-shape'
export {
  type LineCost,
  type OutputLimits,
  OutputMeter,
  utf8LineCost,
  utf8LineWithBreakCost,
} from './output-meter'
export {
  PooledCodeRuntime,
  type PooledRuntimeParts,
  type PreparedProgram,
  type RunnableWorker,
} from './pooled-code-runtime'
export { raceAbort } from './race-abort'
export { type BoundedValueText, boundedCallFailure, boundedValueText } from './reply-text'
export {
  RunDriver,
  type RunDriverOptions,
  type RunHandle,
  type RunLimits,
  type RunWorker,
  type RunWorkerEvent,
} from './run-driver'
export { type ExitingWorker, RunLedger } from './run-ledger'
export {
  type RunMessage,
  type RunMessageLimits,
  type RunRequestParts,
  type RunSessionInput,
  runMessage,
} from './run-message'
export {
  type CallFailure,
  callFailureOf,
  completionOutcome,
  describeWorkerError,
  encodeCallValue,
  failedOutcome,
  nonJsonValueMessage,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
} from './run-outcome'
export { RunSlots, type SlotGrant } from './run-slots'
export { RunTracker } from './run-tracker'
// The config fields every runtime shares (issue 26): one spec fragment, spread into each runtime's.
export {
  type RuntimeConfigFieldName,
  type RuntimeConfigFieldTuning,
  type RuntimeFieldTuning,
  type RuntimeIntegerField,
  runtimeConfigFields,
} from './runtime-config-fields'
export {
  CODE_RUNTIME_ERROR_CODES,
  CodeRuntimeConfigError,
  CodeRuntimeError,
  type CodeRuntimeErrorCode,
  isCodeRuntimeError,
} from './runtime-error'
export { Semaphore } from './semaphore'
export { type TrackedWorker, trackWorker, type WorkerLifetime } from './worker-lifetime'
export {
  type CallCursor,
  callIssue,
  createCallCursor,
  createMessageParser,
  type DoneMessage,
  isMessageRecord,
  type MessageParser,
  type MessageReader,
  type MessageRefusal,
  ownField,
  type ParsedCompletion,
  type ParsedMessage,
  parseCompletion,
  parseDoneMessage,
  type ReadyMessage,
  readLogLine,
  refuseMessage,
} from './worker-message'
export {
  type PooledWorker,
  type SlotSpawn,
  type TakenWorker,
  WorkerPool,
  type WorkerPoolLimits,
} from './worker-pool'
