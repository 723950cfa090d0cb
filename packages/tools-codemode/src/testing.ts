/**
 * Test helpers for Code Mode integrations, at the `@dsh/tools-codemode/testing` subpath (never
 * in the main barrel): start a cordis app with the tool runtime, a code runtime and the Code
 * Mode plugin, run programs through the full pipeline and read their text.
 */
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolExecutionResult, type ToolPresentationMode } from '@dsh/tools-core'
import type { CodeRuntime } from './code-runtime'
import type { CodeModeConfig } from './config'
import * as CodeMode from './plugin'

/** Options of {@link createCodeModeApp}. */
export interface CodeModeAppOptions {
  /** The runtime's presentation mode (default `code`). */
  readonly mode?: ToolPresentationMode
  /** The code runtime, provided as the `codeRuntime` service. */
  readonly runtime: CodeRuntime
  /** Passed to the Code Mode plugin's config. */
  readonly maxParallelSubCalls?: number
  /** More Code Mode config (limits); `maxParallelSubCalls` above wins when both are given. */
  readonly config?: CodeModeConfig
}

/**
 * Start a cordis app with `ToolRuntime`, `runtime` as `codeRuntime` and the Code Mode plugin.
 * Dispose it with `ctx.fiber.dispose()` (the runtime's own lifetime stays the caller's).
 */
export async function createCodeModeApp(options: CodeModeAppOptions): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: options.mode ?? 'code' })
  await ctx.plugin({
    name: 'test-code-runtime',
    apply: (child: Context) => {
      child.provide('codeRuntime', options.runtime)
    },
  })
  await ctx.plugin(CodeMode, {
    ...options.config,
    ...(options.maxParallelSubCalls === undefined
      ? {}
      : { maxParallelSubCalls: options.maxParallelSubCalls }),
  })
  return ctx
}

let nextCallId = 0

/** Run `code` through `ctx.tools.execute({ name: 'run_code' })` with a fresh call id. */
export function runCode(
  ctx: Context,
  code: string,
  options: { readonly signal?: AbortSignal; readonly agent?: string; readonly callId?: string } = {},
): Promise<ToolExecutionResult> {
  return ctx.tools.execute({
    callId: options.callId ?? `call-${++nextCallId}`,
    name: 'run_code',
    arguments: { code, description: 'test program' },
    signal: options.signal ?? new AbortController().signal,
    ...(options.agent === undefined ? {} : { agent: options.agent }),
  })
}

/** The text of a result's content, parts joined (non-text parts as `[type]`). */
export function resultText(result: ToolExecutionResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('')
}

export {
  type DisposeReport,
  disposeAndReport,
  disposeReport,
  type ReportingRuntime,
} from './testing/dispose-report'
export { type FakeHost, type FakeTool, FakeToolCallError, fakeHost, runRequest } from './testing/fake-host'
export { addTool, echoTool } from './testing/fixture-tools'
export { type ResultProcess, ResultProcesses } from './testing/result-processes'
export { scriptCommand } from './testing/script-command'
export { type SharedFieldTuning, sharedFieldTuning } from './testing/shared-config-fields'
export { type ScriptEnd, spawnScript } from './testing/spawn-script'
export { type Deferred, deferred, until } from './testing/wait'
