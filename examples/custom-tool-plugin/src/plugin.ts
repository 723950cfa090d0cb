/**
 * The cordis function plugin: `ctx.plugin(wordCount, { maxTop })` registers `word_count` in the
 * calling context's layer (global, or an agent scope) until the plugin's fiber ends.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createWordCountTool } from './word-count-tool'

/** The plugin's name (fiber diagnostics). */
export const name = 'word-count'

/** The plugin needs the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/** Config as a user writes it. */
export interface WordCountConfig {
  /** The most top words one call may ask for (integer ≥ 1, default 20). */
  readonly maxTop?: number
}

type Issue = { readonly message: string; readonly path?: readonly PropertyKey[] }

/** Standard Schema validator of {@link WordCountConfig}; cordis runs it before `apply`. */
export const Config = {
  '~standard': {
    version: 1 as const,
    vendor: 'example-word-count',
    validate(input: unknown): { value: Required<WordCountConfig> } | { issues: Issue[] } {
      const raw = (input ?? {}) as Record<string, unknown>
      if (typeof raw !== 'object' || Array.isArray(raw))
        return { issues: [{ message: 'config must be an object' }] }
      const unknownKey = Object.keys(raw).find((key) => key !== 'maxTop')
      if (unknownKey) return { issues: [{ message: `unknown config key ${unknownKey}`, path: [unknownKey] }] }
      const maxTop = raw['maxTop'] ?? 20
      if (typeof maxTop !== 'number' || !Number.isSafeInteger(maxTop) || maxTop < 1) {
        return { issues: [{ message: 'maxTop must be an integer ≥ 1', path: ['maxTop'] }] }
      }
      return { value: { maxTop } }
    },
  },
}

/** Register `word_count`; the registration is disposed with the plugin's fiber. */
export function apply(ctx: Context, config?: WordCountConfig): void {
  // cordis validated the config (filling in defaults) before calling apply
  ctx.tools.register(createWordCountTool(config?.maxTop ?? 20))
}
