/**
 * Host-side validation of Pyodide worker messages. The port is treated as hostile (a program
 * that escaped the interpreter could post anything): every message is shape-checked and rebuilt
 * from checked fields only. The runtime kit's `createMessageParser` checks the record and the kinds
 * every runtime shares (`done`, `ready`); this module reads Pyodide's own kinds.
 */
import {
  callIssue,
  createMessageParser,
  type MessageReader,
  ownField,
  readLogLine,
  refuseMessage,
} from '@dsh/tools-codemode/runtime-kit'
import type { WorkerMessage } from './messages'

/** Pyodide's own message kinds: one line per `log`, one call per `call`, and a boot failure. */
const readers: Readonly<Record<string, MessageReader<WorkerMessage>>> = {
  log: (raw) => {
    const line = readLogLine(raw)
    return typeof line === 'string' ? { ok: true, message: { kind: 'log', line } } : line
  },
  call: (raw, cursor) => {
    const id = cursor.nextCallId
    const name = ownField(raw, 'n')
    const argsText = ownField(raw, 'a')
    const issue = callIssue(cursor, ownField(raw, 'i'), name)
    if (issue !== undefined) return refuseMessage(issue)
    if (typeof argsText !== 'string') return refuseMessage('call arguments must be JSON text')
    cursor.nextCallId += 1
    return { ok: true, message: { kind: 'call', call: { id, name: name as string, argsText } } }
  },
  reads: (raw) => {
    const text = ownField(raw, 't')
    return typeof text === 'string'
      ? { ok: true, message: { kind: 'reads', text } }
      : refuseMessage('a reads message must carry JSON text')
  },
  'boot-failed': (raw) => {
    const message = ownField(raw, 'm')
    return {
      ok: true,
      message: { kind: 'boot-failed', message: typeof message === 'string' ? message : 'unknown' },
    }
  },
}

/**
 * Check and rebuild one inbound message; `cursor` advances past each accepted call. Never
 * throws; a refusal carries a reason the caller turns into the run's failure.
 */
export const parseWorkerMessage = createMessageParser(readers)

/** Validation result: a rebuilt message or the reason it was refused. */
export type ParsedWorkerMessage = ReturnType<typeof parseWorkerMessage>
