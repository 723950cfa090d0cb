import type { Context } from '@deepseek-ai/cordis'
import type { AssembleOptions } from '@dsh/tools-core'
import { strictOf, wireFormat } from './internal/wire-formats'
import type { Provider, ProviderOptions, ProviderWire } from './types'

/**
 * The `tools` value of a provider's request: every tool the agent sees (`run_code` in Code
 * Mode; both in `both`), each converted to the provider's schema dialect by
 * `ctx.tools.assemble({ agent, dialect })`. The Code Mode prompt sections are not part of it:
 * put `ctx.tools.assemble({ agent }).sections` in the system prompt. Empty when no tool is
 * visible (leave `tools` out of the request then). Pass the same `strict` to `providerCalls`.
 *
 * @example
 * ```ts
 * const tools = providerTools(ctx, 'openai-chat') // [{ type: 'function', function: { name, …, strict: true } }]
 * await openai.chat.completions.create({ model, messages, tools })
 * ```
 * @throws {TypeError} for an unknown provider or a non-boolean `strict`; whatever `assemble` throws.
 */
export function providerTools<P extends Provider>(
  ctx: Context,
  provider: P,
  options: ProviderOptions = {},
): ProviderWire[P]['tools'] {
  const format = wireFormat(provider)
  const strict = strictOf(format, options.strict)
  const assembleOptions: AssembleOptions = { dialect: format.dialect(strict) }
  if (options.agent !== undefined) (assembleOptions as { agent?: string }).agent = options.agent
  return format.tools(ctx.tools.assemble(assembleOptions).tools, strict)
}
