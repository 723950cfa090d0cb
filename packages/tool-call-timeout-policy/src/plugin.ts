import type { Context } from '@deepseek-ai/cordis'
import { standardConfigSchema } from '@dsh/tools-core'
import { createTimeoutWrapper } from './timeout-wrapper'

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-call-timeout-policy'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/** Zero config: accepts `undefined` or `{}` and rejects anything else. */
export const Config = standardConfigSchema<Record<string, never> | undefined, Record<string, never>>(
  (value) =>
    value === undefined ||
    (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0)
      ? { value: {} }
      : { issues: [{ message: 'tool-call-timeout-policy takes no config' }] },
)

/**
 * Install the timeout wrapper on `tools/execute` in the calling context (global, or an agent
 * scope). Listener order is registration order: install it before a retry wrapper for one
 * deadline across all attempts, after it for a deadline per attempt. The listener ends with the
 * plugin's fiber.
 *
 * @param ctx — the plugin context.
 */
export function apply(ctx: Context): void {
  ctx.on('tools/execute', createTimeoutWrapper(ctx))
}
