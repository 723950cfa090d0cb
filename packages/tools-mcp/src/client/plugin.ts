import type { Context } from '@deepseek-ai/cordis'
import { createScopedEmitter } from '@dsh/tools-core'
import { Config, type McpClientConfig, resolveMcpClientConfig } from '../config'
import type { McpWarning } from '../events'
import { askBeforeDestructive } from './ask-before-destructive'
import { ServerConnection } from './server-connection'
import { ServerToolSet } from './server-tool-set'

export { Config }

/** The plugin's name (fiber diagnostics, logger). */
export const name = 'tools-mcp'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Connect to one MCP server and register each of its tools in the calling scope as
 * `<prefix><tool>`; keep them in step with `notifications/tools/list_changed` and re-list after
 * every reconnect; forward the server's progress to `exec.progress`; close the session
 * (and the child process) with the plugin's fiber. Loading fails when the first connection or
 * listing fails (the message names the server and quotes its stderr tail).
 *
 * @param ctx — the plugin context (a plain context: global tools; an agent scope: that agent's).
 * @param config — the (cordis-validated) config; validated again here, so a direct call is safe too.
 */
export async function apply(ctx: Context, input: McpClientConfig): Promise<void> {
  const resolved = resolveMcpClientConfig(input)
  if (resolved.issues) {
    throw new TypeError(
      `invalid tools-mcp config: ${resolved.issues.map((issue) => issue.message).join('; ')}`,
    )
  }
  const config = resolved.value
  const logger = ctx.logger(name)
  const warn = (message: string, tool?: string): void => {
    const warning: McpWarning =
      tool === undefined ? { server: config.name, message } : { server: config.name, tool, message }
    logger.warn(
      `MCP server "${config.name}"${tool === undefined ? '' : `, tool ${JSON.stringify(tool)}`}: ${message}`,
    )
    ctx.emit('mcp/warning', warning)
  }
  const connection = new ServerConnection({
    server: config.name,
    transport: config.transport,
    timeoutMs: config.timeoutMs,
    limits: config.limits,
    warn,
    onToolsChanged: () => {
      tools
        .sync()
        .catch((error: unknown) => warn(`re-listing tools after list_changed failed: ${messageOf(error)}`))
    },
    // A restarted server may list other tools, and may not say so with list_changed.
    onReconnect: (): Promise<void> =>
      tools
        .sync()
        .catch((error: unknown) => warn(`re-listing tools after reconnecting failed: ${messageOf(error)}`)),
  })
  // Asked per call: `tools/progress` listeners come and go.
  const events = createScopedEmitter(ctx)
  const tools = new ServerToolSet(ctx, connection, {
    prefix: config.prefix,
    trustAnnotations: config.trustAnnotations,
    progressObserved: () => events.listening('tools/progress'),
    warn,
  })
  ctx.effect(
    () => () => {
      tools.stop()
      return connection.close()
    },
    'tools-mcp/session',
  )
  if (config.trustAnnotations) {
    ctx.on(
      'tools/pre-execute',
      askBeforeDestructive(ctx, config.name, (definition) => tools.owns(definition)),
    )
  }
  try {
    await tools.sync()
  } catch (error) {
    tools.stop()
    await connection.close()
    throw error
  }
}
