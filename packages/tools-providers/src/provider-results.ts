import { ToolErrorCode, type ToolExecutionResult } from '@dsh/tools-core'
import { wireFormat } from './internal/wire-formats'
import type { CallOutcome, Provider, ProviderCall, ProviderPendingCall, ProviderResults } from './types'

/**
 * What to append to the conversation after running a response's calls: tool messages (Chat),
 * `function_call_output` items (Responses), one user message of `tool_result` blocks
 * (Anthropic), one user content of `functionResponse` parts (Gemini) — errors and images as
 * each provider documents them, additional contexts after the results.
 *
 * An `APPROVAL_PENDING` result is not sent: its call is listed in `pending` instead, so the
 * loop can stop before asking the model again. Every provider wants an answer for each call
 * of a turn together, so once the pending calls are decided, resume them
 * (`ctx.tools.resume(ticket)`) and call `providerResults` again with all the calls and the
 * final results, then append that.
 *
 * `calls` and `results` pair by index (as `executeBatch` returns them).
 *
 * @throws {TypeError} for an unknown provider or lists of different lengths.
 */
export function providerResults<P extends Provider>(
  provider: P,
  calls: readonly ProviderCall[],
  results: readonly ToolExecutionResult[],
): ProviderResults<P> {
  const format = wireFormat(provider)
  if (calls.length !== results.length) {
    throw new TypeError(`providerResults(): ${calls.length} calls but ${results.length} results`)
  }
  const outcomes: CallOutcome[] = []
  const pending: ProviderPendingCall[] = []
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!
    const result = results[index]!
    if (result.isError && result.error.info?.code === ToolErrorCode.APPROVAL_PENDING && result.pending) {
      pending.push({ call, result, ticket: result.pending.ticket })
    } else outcomes.push({ call, result })
  }
  return { messages: format.results(outcomes), pending }
}
