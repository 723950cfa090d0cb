/**
 * Host-side validation of worker messages. The port is treated as hostile: every message is
 * shape-checked and rebuilt from checked fields only, call ids must arrive strictly in sequence
 * (so none can be answered twice), and binding names must belong to the run's allowed set.
 */
import { parseCallBatch } from './call-batch'
import { DoneStatus, type WorkerCall, type WorkerMessage } from './messages'

/** Per-run state the validator checks against; `nextCallId` advances as calls are accepted. */
export interface MessageCursor {
  /** The id the next call must carry (ids start at 1). */
  nextCallId: number
  /** The binding names this run may call. Membership is exact: nothing inherited resolves. */
  readonly allowed: ReadonlySet<string>
}

/** Validation result: a rebuilt message or the reason it was refused. */
export type ParsedWorkerMessage =
  | { readonly ok: true; readonly message: WorkerMessage }
  | { readonly ok: false; readonly reason: string; readonly unreadable?: true }

const doneStatuses: ReadonlySet<unknown> = new Set(Object.values(DoneStatus))

function own(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined
}

function refuse(reason: string): ParsedWorkerMessage {
  return { ok: false, reason }
}

function parseCalls(raw: unknown, cursor: MessageCursor): ParsedWorkerMessage {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length % 3 !== 0) {
    return refuse('a calls message must carry [id, name, args] triples')
  }
  const calls: WorkerCall[] = []
  let expected = cursor.nextCallId
  for (let i = 0; i < raw.length; i += 3) {
    const id: unknown = raw[i]
    const name: unknown = raw[i + 1]
    if (id !== expected) return refuse(`call id ${String(id)} is out of sequence (expected ${expected})`)
    if (typeof name !== 'string') return refuse('a binding name must be a string')
    if (!cursor.allowed.has(name)) return refuse(`binding "${name}" is not allowed in this run`)
    calls.push({ id: expected, name, args: raw[i + 2] })
    expected += 1
  }
  cursor.nextCallId = expected
  return { ok: true, message: { kind: 'calls', calls } }
}

/**
 * Check and rebuild a batch of calls in text form (`call-batch.ts`), from the call slot or a
 * `calls-json` message. A refusal marked `unreadable` means the program's arguments are too deep
 * to read, not that the worker broke the protocol.
 */
export function parseCallText(text: unknown, cursor: MessageCursor): ParsedWorkerMessage {
  if (typeof text !== 'string') return refuse('a call batch must be text')
  const batch = parseCallBatch(text)
  return batch.ok ? parseCalls(batch.triples, cursor) : batch
}

function parseLogs(raw: unknown): ParsedWorkerMessage {
  if (!Array.isArray(raw) || raw.length === 0)
    return refuse('a logs message must carry a non-empty array of lines')
  const lines: string[] = []
  for (let i = 0; i < raw.length; i++) {
    const line: unknown = raw[i]
    if (typeof line !== 'string') return refuse('a log line must be a string')
    lines.push(line)
  }
  return { ok: true, message: { kind: 'log', lines } }
}

/**
 * Check and rebuild one inbound message. Never throws; a refusal carries a reason the
 * caller turns into the run's failure.
 */
export function parseWorkerMessage(raw: unknown, cursor: MessageCursor): ParsedWorkerMessage {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return refuse('a message must be an object')
  switch (own(raw, 'k')) {
    case 'log': {
      const line = own(raw, 'l')
      return typeof line === 'string'
        ? { ok: true, message: { kind: 'log', lines: [line] } }
        : refuse('a log line must be a string')
    }
    case 'logs':
      return parseLogs(own(raw, 'l'))
    case 'calls':
      return parseCalls(own(raw, 'c'), cursor)
    case 'calls-json':
      return parseCallText(own(raw, 't'), cursor)
    case 'done': {
      const status = own(raw, 's')
      const payload = own(raw, 'v')
      if (!doneStatuses.has(status)) return refuse('unknown completion status')
      if (payload !== undefined && typeof payload !== 'string')
        return refuse('a completion payload must be a string')
      if (status !== DoneStatus.OK && payload === undefined)
        return refuse('a failed completion must carry a message')
      return { ok: true, message: { kind: 'done', status: status as DoneStatus, payload } }
    }
    case 'ready':
      return { ok: true, message: { kind: 'ready' } }
    default:
      return refuse('unknown message type')
  }
}
