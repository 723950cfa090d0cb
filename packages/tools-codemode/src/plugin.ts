/**
 * The Code Mode cordis plugin: provides the `run_code` transport and its prompt sections to
 * the tool runtime, for as long as both `tools` and `codeRuntime` are loaded.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createScopedEmitter } from '@dsh/tools-core'
import type { BridgeEnvironment } from './bridge'
import { type CodeModeConfig, CodeModeConfigSchema, DEFAULT_CODE_MODE_CONFIG } from './config'
import { executeRunCode } from './run-code'
import { codeModeSections } from './sdk/sections'
import { createRunCodeTransport } from './transport'

/** Plugin name. */
export const name = 'tools-codemode'

/**
 * Required services. The plugin is active only while a tool runtime and a code runtime are
 * both loaded; without a runtime there is no provider, and core fails a non-native assembly
 * loudly instead of advertising a transport that cannot run.
 */
export const inject = ['tools', 'codeRuntime']

/** Config validator: `maxParallelSubCalls` and the per-run limits, each an integer ≥ 1 (see `CodeModeConfig`). */
export const Config: typeof CodeModeConfigSchema = CodeModeConfigSchema

/**
 * Register the Code Mode provider on `ctx.tools`. The provider (transport + sections) is
 * disposed with this plugin's fiber.
 */
export function apply(ctx: Context, config?: CodeModeConfig): void {
  const runtime = ctx.codeRuntime
  // Disposing the plugin (or the code runtime or context it depends on) aborts every run still
  // going: each one ends `ABORTED` once its program has stopped.
  const shutdown = new AbortController()
  ctx.effect(() => () => shutdown.abort(), 'tools-codemode/runs')
  const env: BridgeEnvironment = {
    tools: ctx.tools,
    runtime,
    events: createScopedEmitter(ctx),
    limits: { ...DEFAULT_CODE_MODE_CONFIG, ...config },
    shutdown: shutdown.signal,
  }
  const transport = createRunCodeTransport({
    language: runtime.language,
    execute: (args, exec) => executeRunCode(env, args, exec),
  })
  ctx.tools.provideCodeMode({
    transport,
    sections: (input) => codeModeSections(runtime.language, input),
  })
}
