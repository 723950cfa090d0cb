/**
 * Building blocks of a host-side parser for messages from a run thread. The port is hostile:
 * fields are read only when they are the message's own (nothing inherited resolves), call ids
 * must arrive strictly in sequence (so none can be answered twice), binding names must belong
 * to the run's allowed set, and a completion is checked before anything is rebuilt from it.
 * A runtime's parser switches on its own message kinds and uses these for the shared rules.
 */
import { DoneStatus } from './done-status'

/** Per-run state the call check reads; `nextCallId` advances as calls are accepted. */
export interface CallCursor {
  /** The id the next call must carry (ids start at 1). */
  nextCallId: number
  /** The binding names this run may call. Membership is exact: nothing inherited resolves. */
  readonly allowed: ReadonlySet<string>
}

/** A new cursor for a run allowed to call `toolNames`. */
export function createCallCursor(toolNames: readonly string[]): CallCursor {
  return { nextCallId: 1, allowed: new Set(toolNames) }
}

/** Whether `raw` is a plain message record (an object, not an array, not null). */
export function isMessageRecord(raw: unknown): raw is object {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
}

/** `record[key]` when it is the record's own property, otherwise `undefined` (no getter of a prototype runs). */
export function ownField(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined
}

/**
 * Check the call with `id` and `name` against the cursor without advancing it: the reason it
 * is refused, or `undefined` when the next call may be this one. Pass `expected` to check a
 * later call of a batch (default `cursor.nextCallId`).
 */
export function callIssue(
  cursor: CallCursor,
  id: unknown,
  name: unknown,
  expected: number = cursor.nextCallId,
): string | undefined {
  if (id !== expected) return `call id ${String(id)} is out of sequence (expected ${expected})`
  if (typeof name !== 'string') return 'a binding name must be a string'
  if (!cursor.allowed.has(name)) return `binding "${name}" is not allowed in this run`
  return undefined
}

/** A checked completion: its status and its payload text, if any. */
export type ParsedCompletion =
  | { readonly ok: true; readonly status: DoneStatus; readonly payload: string | undefined }
  | { readonly ok: false; readonly reason: string }

const doneStatuses: ReadonlySet<unknown> = new Set(Object.values(DoneStatus))

/**
 * Check a completion's status and payload: the status must be a {@link DoneStatus}, the payload
 * text or absent, and a status other than `OK` must carry its message.
 */
export function parseCompletion(status: unknown, payload: unknown): ParsedCompletion {
  if (!doneStatuses.has(status)) return { ok: false, reason: 'unknown completion status' }
  if (payload !== undefined && typeof payload !== 'string') {
    return { ok: false, reason: 'a completion payload must be a string' }
  }
  if (status !== DoneStatus.OK && payload === undefined) {
    return { ok: false, reason: 'a failed completion must carry a message' }
  }
  return { ok: true, status: status as DoneStatus, payload }
}

/** A parser's refusal of one message. */
export interface MessageRefusal {
  readonly ok: false
  readonly reason: string
  /** Set when the message could not be read as sent (the program's own values, e.g. too deep), not a protocol breach. */
  readonly unreadable?: true
}

/** A parser's verdict on one message: `M` rebuilt from checked fields only, or a refusal. */
export type ParsedMessage<M> = { readonly ok: true; readonly message: M } | MessageRefusal

/** A refusal of one message for `reason`. */
export function refuseMessage(reason: string): MessageRefusal {
  return { ok: false, reason }
}

/** The completion message every runtime rebuilds: its checked status and payload text. */
export interface DoneMessage {
  readonly kind: 'done'
  readonly status: DoneStatus
  readonly payload: string | undefined
}

/**
 * Check and rebuild a completion record on the wire, `{ s: status, v?: payload }` (see
 * {@link parseCompletion}); only the record's own fields are read.
 */
export function parseDoneMessage(raw: object): ParsedMessage<DoneMessage> {
  const done = parseCompletion(ownField(raw, 's'), ownField(raw, 'v'))
  return done.ok
    ? { ok: true, message: { kind: 'done', status: done.status, payload: done.payload } }
    : refuseMessage(done.reason)
}

/** The message a worker posts once booted; in a run it is a protocol violation. */
export interface ReadyMessage {
  readonly kind: 'ready'
}

/**
 * A runtime's reader of one of its own message kinds: the checked record, the run's call
 * cursor, and the run's `maxLogLines` (how far a batch of lines is read).
 */
export type MessageReader<M> = (record: object, cursor: CallCursor, maxLines: number) => ParsedMessage<M>

/** A runtime's parser of inbound messages, as {@link createMessageParser} builds it. */
export type MessageParser<M> = (
  raw: unknown,
  cursor: CallCursor,
  maxLines?: number,
) => ParsedMessage<M | DoneMessage | ReadyMessage>

/**
 * A parser that checks and rebuilds one inbound message: the kinds every runtime shares (`done`,
 * `ready`), and the runtime's own by their `k` (`readers`, own keys only); anything else is
 * refused. The parser never throws; a refusal carries a reason the caller turns into the run's
 * failure. `maxLines` (default unbounded) reaches the readers as the run's `maxLogLines`.
 */
export function createMessageParser<M>(
  readers: Readonly<Record<string, MessageReader<M>>>,
): MessageParser<M> {
  // A map, not the object: no inherited name (`constructor`, `toString`) can resolve to a reader.
  const byKind = new Map(Object.entries(readers))
  return (raw, cursor, maxLines = Number.POSITIVE_INFINITY) => {
    if (!isMessageRecord(raw)) return refuseMessage('a message must be an object')
    const kind = ownField(raw, 'k')
    if (kind === 'done') return parseDoneMessage(raw)
    if (kind === 'ready') return { ok: true, message: { kind: 'ready' } }
    const read = typeof kind === 'string' ? byKind.get(kind) : undefined
    return read === undefined ? refuseMessage('unknown message type') : read(raw, cursor, maxLines)
  }
}

/** The line `l` of a `{ k: 'log', l }` record, or the refusal of a line that is not a string. */
export function readLogLine(record: object): string | MessageRefusal {
  const line = ownField(record, 'l')
  return typeof line === 'string' ? line : refuseMessage('a log line must be a string')
}
