import { strictOf, wireFormat } from './internal/wire-formats'
import type { Provider, ProviderCall, ProviderOptions, ProviderWire } from './types'

/**
 * The tool calls of a provider's response, in the model's order, as `ToolExecutionInput`s
 * without `signal` (and `agent`): run them with
 * `ctx.tools.executeBatch(calls.map((call) => ({ ...call, agent, signal })))`. Each carries the
 * dialect `providerTools` used, so the pipeline reads the arguments back to canonical form.
 * Argument text that is not JSON is no throw: the call keeps the text as its arguments (the
 * pipeline answers `INVALID_ARGS` before any policy or body) and `malformed` says why.
 *
 * Reads the first choice (Chat), the `function_call` items (Responses), the `tool_use` blocks
 * (Anthropic) or the first candidate's `functionCall` parts (Gemini); other content is skipped.
 *
 * @throws {TypeError} for an unknown provider or a non-boolean `strict`.
 */
export function providerCalls<P extends Provider>(
  provider: P,
  response: ProviderWire[P]['response'],
  options: Pick<ProviderOptions, 'strict'> = {},
): ProviderCall[] {
  const format = wireFormat(provider)
  return format.calls(response, format.dialect(strictOf(format, options.strict)))
}
