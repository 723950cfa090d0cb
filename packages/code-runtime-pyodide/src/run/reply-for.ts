/**
 * The host's answer to one settled binding call, bounded by what the program can hold. A tool's
 * value and its failure are the host's (or an untrusted MCP server's) data, as unbounded as the
 * program's own: a value with shared references has a JSON text far larger than its memory, and
 * a 100 MB error message or string would only run the worker out of memory.
 */
import { boundedCallFailure, boundedValueText, nonJsonValueMessage } from '@dsh/tools-codemode/runtime-kit'
import { memoryBudget } from '../memory-budget'
import type { ReplyMessage, WorkerCall } from '../protocol/messages'
import type { JsonValue, ResolvedPyodideRuntimeConfig } from '../types'

/**
 * The longest reply text a program may receive, in UTF-16 code units: a quarter of the smaller
 * of the run's two memory parts it crosses (`memory-budget.ts`). The text crosses the worker's V8
 * heap (its old generation) as a message and a string, then lands in the interpreter's memory as
 * a Python `str` next to the value `json.loads` builds from it.
 */
export function maxReplyUnits(config: ResolvedPyodideRuntimeConfig): number {
  const budget = memoryBudget(config)
  return Math.floor(Math.min(budget.oldGenerationMb * 1024 * 1024, budget.interpreterBytes) / 4)
}

/**
 * The reply to a settled call: the value's JSON text, or the failure's tool name and message
 * only. A value whose text would exceed `maxUnits` is refused before any text is built (a cycle
 * too); a failure's tool name and message are cut to `maxUnits` each.
 */
export function replyFor(
  call: WorkerCall,
  settled: PromiseSettledResult<JsonValue>,
  maxUnits: number,
): ReplyMessage {
  if (settled.status === 'rejected') {
    const failure = boundedCallFailure(settled.reason, call.name, maxUnits)
    return refusal(call, failure.toolName, failure.message)
  }
  const bounded = boundedValueText(settled.value, maxUnits)
  if (bounded === undefined) return refusal(call, call.name, nonJsonValueMessage(call.name))
  if ('size' in bounded) return tooLarge(call, bounded.size, maxUnits)
  return { k: 'res', i: call.id, ok: true, a: bounded.text, b: null }
}

function tooLarge(call: WorkerCall, size: string, maxUnits: number): ReplyMessage {
  const message =
    `the result of ${call.name} is too large for the program: ${size} characters, at most ${maxUnits} ` +
    "(a quarter of the worker heap's part of maxMemoryMb)"
  return refusal(call, call.name, message)
}

function refusal(call: WorkerCall, toolName: string, message: string): ReplyMessage {
  return { k: 'res', i: call.id, ok: false, a: toolName, b: message }
}
