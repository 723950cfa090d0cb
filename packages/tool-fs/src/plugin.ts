import type { Context } from '@deepseek-ai/cordis'
import type { ToolDefinition } from '@dsh/tools-core'
import { type FsToolsConfigInput, resolveFsToolsConfig } from './config'
import { createFsToolContext, type FsToolContext } from './fs-tool-context'
import { createEditTool } from './tools/edit-tool'
import { createGlobTool } from './tools/glob-tool'
import { createGrepTool } from './tools/grep-tool'
import { createReadTool } from './tools/read-tool'
import { createWriteTool } from './tools/write-tool'

/** The cordis plugin name. */
export const name = 'tool-fs'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/** The five fs tool definitions (`read`, `write`, `edit`, `glob`, `grep`) sharing one context. */
function toolsOf(context: FsToolContext): ToolDefinition[] {
  return [
    createReadTool(context),
    createWriteTool(context),
    createEditTool(context),
    createGlobTool(context),
    createGrepTool(context),
  ]
}

/**
 * Register the fs tools with `ctx.tools`; registrations end with the plugin's fiber. cordis
 * has already validated `config` through {@link Config}; validating again here is idempotent
 * and keeps a direct `apply()` call (or a partial config type) safe. `grep`'s worker threads are
 * terminated when the fiber ends.
 * @throws {FsToolError} `INVALID_CONFIG` for an invalid config or a missing root.
 */
export function apply(ctx: Context, config?: FsToolsConfigInput): void {
  const context = createFsToolContext(resolveFsToolsConfig(config))
  ctx.effect(() => () => context.grepWorkers.close(), 'tool-fs/grep-workers')
  for (const definition of toolsOf(context)) ctx.tools.register(definition)
}
