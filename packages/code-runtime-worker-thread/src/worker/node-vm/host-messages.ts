/**
 * Reading what the host sends the node:vm worker. The port is treated as hostile in both
 * directions, so each field is checked before use and nothing but primitives reaches the kernel.
 */
import {
  DoneStatus,
  readValueLimits,
  type ValueLimits,
  valueTextIssue,
} from '@dsh/tools-codemode/runtime-kit'

/** A validated `run` message, or why it was refused. */
export type RunRequest =
  | {
      readonly ok: true
      readonly code: string
      readonly names: string
      readonly byteLimit: number
      readonly lineLimit: number
      readonly valueLimits: ValueLimits
    }
  | {
      readonly ok: false
      readonly byteLimit: number
      readonly lineLimit: number
      readonly valueLimits: ValueLimits
      readonly message: string
    }

/** Read a `run` message (`protocol/messages.ts`'s `RunMessage`). */
export function readRunRequest(message: Record<string, unknown>): RunRequest {
  const byteLimit = typeof message['limit'] === 'number' ? message['limit'] : 0
  const lineLimit = typeof message['lines'] === 'number' ? message['lines'] : Number.POSITIVE_INFINITY
  const valueLimits = readValueLimits(message)
  const { code, names } = message
  if (typeof code !== 'string' || typeof names !== 'string') {
    return { ok: false, byteLimit, lineLimit, valueLimits, message: 'malformed run request' }
  }
  return { ok: true, code, names, byteLimit, lineLimit, valueLimits }
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function')
}

/**
 * Walk a `res` batch (`[id, status, a, b, …]`): `answered` runs once per reply, `settle` only
 * for replies whose values are primitives. Returns the number of replies.
 */
export function forEachReply(
  batch: unknown,
  answered: () => void,
  settle: (id: number, status: number, a: unknown, b: unknown) => void,
): number {
  if (!Array.isArray(batch)) return 0
  let count = 0
  for (let i = 0; i + 3 < batch.length; i += 4) {
    count += 1
    answered()
    const a: unknown = batch[i + 2]
    const b: unknown = batch[i + 3]
    if (isPrimitive(a) && isPrimitive(b)) settle(batch[i] as number, batch[i + 1] as number, a, b)
  }
  return count
}

/** The `done` message of the wire protocol. */
export interface DoneMessage {
  readonly k: 'done'
  readonly s: DoneStatus
  readonly v: string | undefined
}

/**
 * Shape the completion message: an unknown status counts as an exception, a missing failure
 * message gets a generic one, and a payload that would take the output past `byteLimit`, or a
 * result past `valueLimits`, turns the run into `output-limit`.
 */
export function completionMessage(
  status: unknown,
  payload: unknown,
  bytesUsed: number,
  byteLimit: number,
  valueLimits: ValueLimits = readValueLimits({}),
): DoneMessage {
  const known =
    status === DoneStatus.OK ||
    status === DoneStatus.EXCEPTION ||
    status === DoneStatus.INVALID_OUTPUT ||
    status === DoneStatus.OUTPUT_LIMIT
  let s: DoneStatus = known ? status : DoneStatus.EXCEPTION
  let v = typeof payload === 'string' ? payload : s === DoneStatus.OK ? undefined : 'the run failed'
  if (v !== undefined && bytesUsed + Buffer.byteLength(v, 'utf8') > byteLimit) {
    v = `${status === DoneStatus.OK ? 'result' : 'failure message'} exceeded maxOutputBytes (${byteLimit} bytes)`
    s = DoneStatus.OUTPUT_LIMIT
  } else if (v !== undefined && s === DoneStatus.OK) {
    const tooLarge = valueTextIssue(v, 'the result', valueLimits)
    if (tooLarge !== undefined) {
      v = tooLarge
      s = DoneStatus.OUTPUT_LIMIT
    }
  }
  return { k: 'done', s, v }
}
