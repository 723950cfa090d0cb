/**
 * The outcomes and messages every runtime builds the same way: a failure record, the abort
 * wording, a worker's death, the outcome of a completion message, and what of a settled binding
 * call goes back into the program (the value's JSON text, or a failure's tool name and message).
 */
import type { CodeRunFailureKind, CodeRunOutcome } from '../code-runtime'
import { DoneStatus, failureKindOf } from './done-status'
import { type ValueLimits, valueTextIssue } from './json-text-shape'
import type { OutputMeter } from './output-meter'

/** The message of a run ended by its host signal. */
export const RUN_ABORTED_MESSAGE = 'the run was aborted'
/** The message of a run ended (or refused) because the runtime was disposed. */
export const RUNTIME_DISPOSED_MESSAGE = 'the code runtime was disposed'

/** A failed outcome. */
export function failedOutcome(
  kind: CodeRunFailureKind,
  message: string,
  logs: readonly string[] = [],
): CodeRunOutcome {
  return { ok: false, kind, message, logs }
}

/** Describe a worker `error` event (or a killed process) for a `worker-exit` failure message. */
export function describeWorkerError(
  error: unknown,
  limits: { readonly maxOldGenerationSizeMb: number },
): string {
  let code: unknown
  let message: unknown
  try {
    code = (error as { code?: unknown } | null)?.code
    message = (error as { message?: unknown } | null)?.message
  } catch {
    // A hostile error object: describe it by what could be read.
  }
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the worker ran out of memory (maxOldGenerationSizeMb: ${limits.maxOldGenerationSizeMb})`
  }
  return `the worker failed: ${typeof message === 'string' ? message : safeString(error)}`
}

function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    return 'an error that cannot be described'
  }
}

/**
 * The outcome of a checked completion message: the payload is charged to `meter` first (over
 * the cap is `output-limit`), a failed status becomes its failure kind, and an `OK` payload must
 * be JSON text (otherwise `invalid-output`) within `limits` — measured by one scan of the text
 * before it is parsed, so a result of a million keys costs the host that scan, not a parse
 * (over them is `output-limit`). `logs` are the lines captured so far.
 */
export function completionOutcome(
  status: DoneStatus,
  payload: string | undefined,
  logs: readonly string[],
  meter: OutputMeter,
  limits: ValueLimits,
): CodeRunOutcome {
  const over = meter.payloadIssue(payload, status === DoneStatus.OK ? 'result' : 'failure message')
  if (over !== undefined) return failedOutcome('output-limit', over, logs)
  if (status !== DoneStatus.OK) return failedOutcome(failureKindOf(status), payload ?? 'the run failed', logs)
  if (payload === undefined) return { ok: true, logs }
  const tooLarge = valueTextIssue(payload, 'the result', limits)
  if (tooLarge !== undefined) return failedOutcome('output-limit', tooLarge, logs)
  try {
    return { ok: true, logs, result: JSON.parse(payload) }
  } catch {
    return failedOutcome('invalid-output', 'the result is not valid JSON text', logs)
  }
}

/** What a program sees of a failed binding call: the tool's name and a message, nothing else. */
export interface CallFailure {
  readonly toolName: string
  readonly message: string
}

/**
 * The `toolName` and `message` of a call's rejection (a `ToolCallError`, or anything thrown),
 * falling back to `toolName` and a generic message; never throws, even for a hostile reason.
 */
export function callFailureOf(reason: unknown, toolName: string): CallFailure {
  let name = toolName
  let message = 'tool call failed'
  try {
    const record = reason as { toolName?: unknown; message?: unknown } | null
    if (typeof record?.toolName === 'string') name = record.toolName
    message = typeof record?.message === 'string' ? record.message : String(reason)
  } catch {
    // Keep the defaults for an error that cannot be read.
  }
  return { toolName: name, message }
}

/**
 * The JSON text of a call's value (`undefined` becomes `null`), or `undefined` when it cannot be
 * encoded (a cycle, a BigInt, a throwing `toJSON`): the caller then answers with
 * {@link nonJsonValueMessage}.
 */
export function encodeCallValue(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value ?? null)
    return typeof text === 'string' ? text : undefined
  } catch {
    return undefined
  }
}

/** The failure message of a call whose value is not JSON. */
export function nonJsonValueMessage(toolName: string): string {
  return `${toolName} returned a value that is not JSON`
}
