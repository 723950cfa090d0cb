// Public API of @dsh/tools-codemode/runtime-kit: the pieces every CodeRuntime shares.
// Explicit named re-exports only; no logic here.
export { awaitBoot, type BootOutcome, type WorkerEvents } from './await-boot'
export {
  type BusyTimeSource,
  type LoopUtilization,
  type RunBudget,
  startBudgetWatchdog,
} from './budget-watchdog'
export {
  type ConfigCheck,
  type ConfigSchema,
  checkConfig,
  configSchema,
  MAX_TIMER_MS,
} from './config-check'
export { cutToLimit } from './cut-to-limit'
export { DoneStatus, failureKindOf } from './done-status'
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
export { raceAbort } from './race-abort'
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
export { RunTracker } from './run-tracker'
export {
  CODE_RUNTIME_ERROR_CODES,
  CodeRuntimeConfigError,
  CodeRuntimeError,
  type CodeRuntimeErrorCode,
  isCodeRuntimeError,
} from './runtime-error'
export { Semaphore } from './semaphore'
export {
  type CallCursor,
  callIssue,
  createCallCursor,
  type DoneMessage,
  isMessageRecord,
  type MessageRefusal,
  ownField,
  type ParsedCompletion,
  type ParsedMessage,
  parseCompletion,
  parseDoneMessage,
  refuseMessage,
} from './worker-message'
