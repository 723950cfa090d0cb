/**
 * The cordis function plugin: `ctx.plugin(wordCount, { maxTop })` registers `word_count` in the
 * calling context's layer (global, or an agent scope) until the plugin's fiber ends.
 */
import type { Context } from '@deepseek-ai/cordis'
import { configSchema, type InferConfigInput } from '@dsh/tools-core'
import { createWordCountTool } from './word-count-tool'

/** The plugin's name (fiber diagnostics). */
export const name = 'word-count'

/** The plugin needs the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/**
 * The plugin's config, declared once with `configSchema`: the validator cordis runs before
 * `apply` (unknown keys refused, defaults filled), the JSON Schema (`Config['~standard'].jsonSchema`)
 * and the README's Config table (`pnpm config-tables`).
 */
export const Config = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    maxTop: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      default: 20,
      description: 'the most top words one call may ask for',
    },
  },
})

/** Config as a user writes it. */
export type WordCountConfig = InferConfigInput<typeof Config>

/** Register `word_count`; the registration is disposed with the plugin's fiber. */
export function apply(ctx: Context, config?: WordCountConfig): void {
  // cordis validated the config before calling apply; validating again (idempotent) fills the
  // defaults for a direct call too.
  const checked = Config['~standard'].validate(config)
  if (checked.issues) throw new TypeError(`invalid word-count config: ${checked.issues[0]?.message}`)
  ctx.tools.register(createWordCountTool(checked.value.maxTop))
}
