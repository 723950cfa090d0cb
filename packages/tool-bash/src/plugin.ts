import type { Context } from '@deepseek-ai/cordis'
import { createBashTool } from './bash-tool'
import { type BashConfigInput, resolveBashConfig } from './config'

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-bash'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/**
 * Register the `bash` tool in the calling context's layer (global, or an agent scope). The
 * registration ends with the plugin's fiber.
 *
 * @param ctx — the plugin context.
 * @param config — the (cordis-validated) config; validated again here, so a direct call is safe too.
 */
export function apply(ctx: Context, config?: BashConfigInput): void {
  const resolved = resolveBashConfig(config)
  if (resolved.issues) {
    throw new TypeError(`invalid tool-bash config: ${resolved.issues.map((i) => i.message).join('; ')}`)
  }
  const logger = ctx.logger('tool-bash')
  // Disposing the plugin (its context, or the agent scope it was registered through) aborts
  // every call in flight, whatever the runtime does with them.
  const lifetime = new AbortController()
  ctx.effect(() => () => lifetime.abort(), 'tool-bash/calls in flight')
  ctx.tools.register(
    createBashTool(resolved.value, { warn: (message) => logger.warn(message), lifetime: lifetime.signal }),
  )
}
