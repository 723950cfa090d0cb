/**
 * Host-side validation of Pyodide worker messages. The port is treated as hostile (a program
 * that escaped the interpreter could post anything): every message is shape-checked and rebuilt
 * from checked fields only, with the runtime kit's shared rules for own fields, call sequence,
 * allowed bindings and completions.
 */
import {
  type CallCursor,
  callIssue,
  isMessageRecord,
  ownField,
  type ParsedMessage,
  parseDoneMessage,
  refuseMessage,
} from '@dsh/tools-codemode/runtime-kit'
import type { WorkerMessage } from './messages'

/** Validation result: a rebuilt message or the reason it was refused. */
export type ParsedWorkerMessage = ParsedMessage<WorkerMessage>

function parseCall(raw: object, cursor: CallCursor): ParsedWorkerMessage {
  const id = cursor.nextCallId
  const name = ownField(raw, 'n')
  const argsText = ownField(raw, 'a')
  const issue = callIssue(cursor, ownField(raw, 'i'), name)
  if (issue !== undefined) return refuseMessage(issue)
  if (typeof argsText !== 'string') return refuseMessage('call arguments must be JSON text')
  cursor.nextCallId += 1
  return { ok: true, message: { kind: 'call', call: { id, name: name as string, argsText } } }
}

/**
 * Check and rebuild one inbound message; `cursor` advances past each accepted call. Never
 * throws; a refusal carries a reason the caller turns into the run's failure.
 */
export function parseWorkerMessage(raw: unknown, cursor: CallCursor): ParsedWorkerMessage {
  if (!isMessageRecord(raw)) return refuseMessage('a message must be an object')
  switch (ownField(raw, 'k')) {
    case 'log': {
      const line = ownField(raw, 'l')
      return typeof line === 'string'
        ? { ok: true, message: { kind: 'log', line } }
        : refuseMessage('a log line must be a string')
    }
    case 'call':
      return parseCall(raw, cursor)
    case 'done':
      return parseDoneMessage(raw)
    case 'ready':
      return { ok: true, message: { kind: 'ready' } }
    case 'boot-failed': {
      const message = ownField(raw, 'm')
      return {
        ok: true,
        message: { kind: 'boot-failed', message: typeof message === 'string' ? message : 'unknown' },
      }
    }
    default:
      return refuseMessage('unknown message type')
  }
}
