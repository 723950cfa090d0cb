/**
 * Host-side validation of worker messages. The port is treated as hostile: every message is
 * shape-checked and rebuilt from checked fields only. The runtime kit's `createMessageParser` checks
 * the record and the kinds every runtime shares (`done`, `ready`); this module reads this
 * runtime's own kinds (line batches, call batches) with the kit's call rules.
 */
import {
  type CallCursor,
  callIssue,
  createMessageParser,
  type MessageReader,
  ownField,
  type ParsedMessage,
  readLogLine,
  refuseMessage,
} from '@dsh/tools-codemode/runtime-kit'
import { type CallBatchCall, parseCallBatch } from './call-batch'
import type { WorkerCall, WorkerMessage } from './messages'

/** Validation result: a rebuilt message or the reason it was refused. */
export type ParsedWorkerMessage = ParsedMessage<WorkerMessage>

function parseCalls(raw: unknown, cursor: CallCursor): ParsedWorkerMessage {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length % 3 !== 0) {
    return refuseMessage('a calls message must carry [id, name, args] triples')
  }
  const calls: WorkerCall[] = []
  let expected = cursor.nextCallId
  for (let i = 0; i < raw.length; i += 3) {
    const id: unknown = raw[i]
    const name: unknown = raw[i + 1]
    const issue = callIssue(cursor, id, name, expected)
    if (issue !== undefined) return refuseMessage(issue)
    calls.push({ id: expected, name: name as string, args: raw[i + 2] })
    expected += 1
  }
  cursor.nextCallId = expected
  return { ok: true, message: { kind: 'calls', calls } }
}

/** {@link parseCalls} for a batch in text form: the arguments stay JSON text. */
function parseTextCalls(batch: readonly CallBatchCall[], cursor: CallCursor): ParsedWorkerMessage {
  const calls: WorkerCall[] = []
  let expected = cursor.nextCallId
  for (const { id, name, argsJson } of batch) {
    const issue = callIssue(cursor, id, name, expected)
    if (issue !== undefined) return refuseMessage(issue)
    calls.push(
      argsJson === undefined
        ? { id: expected, name: name as string, args: undefined }
        : { id: expected, name: name as string, argsJson },
    )
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
export function parseCallText(text: unknown, cursor: CallCursor): ParsedWorkerMessage {
  if (typeof text !== 'string') return refuseMessage('a call batch must be text')
  const batch = parseCallBatch(text)
  return batch.ok ? parseTextCalls(batch.calls, cursor) : batch
}

/**
 * A batch of lines. At most `maxLines + 1` are read: the run's output meter fails the run by
 * then (as `output-limit`), so a hostile batch of millions of lines is not copied whole.
 */
function parseLogs(raw: unknown, maxLines: number): ParsedWorkerMessage {
  if (!Array.isArray(raw) || raw.length === 0)
    return refuseMessage('a logs message must carry a non-empty array of lines')
  const lines: string[] = []
  const count = Math.min(raw.length, maxLines + 1)
  for (let i = 0; i < count; i++) {
    const line: unknown = raw[i]
    if (typeof line !== 'string') return refuseMessage('a log line must be a string')
    lines.push(line)
  }
  return { ok: true, message: { kind: 'log', lines } }
}

/** This runtime's own message kinds. */
const readers: Readonly<Record<string, MessageReader<WorkerMessage>>> = {
  log: (raw) => {
    const line = readLogLine(raw)
    return typeof line === 'string' ? { ok: true, message: { kind: 'log', lines: [line] } } : line
  },
  logs: (raw, _cursor, maxLines) => parseLogs(ownField(raw, 'l'), maxLines),
  calls: (raw, cursor) => parseCalls(ownField(raw, 'c'), cursor),
  'calls-json': (raw, cursor) => parseCallText(ownField(raw, 't'), cursor),
  reads: (raw) => {
    const text = ownField(raw, 't')
    return typeof text === 'string'
      ? { ok: true, message: { kind: 'reads', text } }
      : refuseMessage('a reads message must carry JSON text')
  },
}

/**
 * Check and rebuild one inbound message. Never throws; a refusal carries a reason the
 * caller turns into the run's failure. `maxLines` is the run's `maxLogLines`: a log batch is
 * read only that far (and one line more, which fails the run).
 */
export const parseWorkerMessage = createMessageParser(readers)
