/**
 * Boots the toolkit for one demo run: the `ToolRuntime` in the requested presentation mode, the
 * timeout policy, the real bash and fs tools confined to the workspace, Code Mode with the
 * worker-thread runtime — or the Pyodide runtime for `--lang python` — (for `code` / `both`), the demo policy, and a timing recorder — all in
 * one cordis context the run disposes at the end. The agent runs in its own scope.
 */
import { Context } from '@deepseek-ai/cordis'
import * as bashTool from '@dsh/tool-bash'
import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import * as fsTools from '@dsh/tool-fs'
import ToolRuntime, { createScope, type ToolPresentationMode } from '@dsh/tools-core'
import { DemoApproval, installDemoPolicy, type PolicyLog } from './policy'
import type { CodeLanguage } from './task'
import { TimingRecorder } from './timing'

/** The demo's `resultBudget`: only `bash` output is capped tightly. */
export const DEMO_RESULT_BUDGET = {
  maxContentBytes: 16_384,
  perTool: { bash: 1_024, read_result: 16_384 },
} as const

/** The tools the native run defers for its agent, found with `tool_search` first. */
export const DEFERRED_TOOLS: readonly string[] = ['glob']

/** A running toolkit. */
export interface DemoRuntime {
  readonly ctx: Context
  /** The scope key the agent runs as. */
  readonly agent: string
  readonly policyLog: PolicyLog
  readonly timing: TimingRecorder
  dispose(): Promise<void>
}

/** Start everything the demo needs for `mode` on `workspace`. */
export async function startDemoRuntime(
  mode: ToolPresentationMode,
  workspace: string,
  lang: CodeLanguage = 'typescript',
): Promise<DemoRuntime> {
  const ctx = new Context()
  const policyLog: PolicyLog = []
  const timing = new TimingRecorder()
  try {
    // A result budget small enough that the first test run's output (a couple of KB) is cut to
    // its head and tail around an `[elided …; full result: read_result handle=res_…]` marker;
    // everything else fits. `read_result` pages are allowed more, so the rest comes in one page.
    await ctx.plugin(ToolRuntime, { mode, resultBudget: DEMO_RESULT_BUDGET })
    await ctx.plugin(timeoutPolicy)
    // A short progress interval, so even the fixture's test run (well under a second) shows
    // the output-so-far lines a long command would.
    await ctx.plugin(bashTool, { workdir: workspace, defaultTimeoutMs: 60_000, progressIntervalMs: 25 })
    await ctx.plugin(fsTools, { roots: [workspace] })
    if (mode !== 'native') {
      // Code Mode is only loaded when the mode needs it, with the runtime of the program's language.
      const codeMode = await import('@dsh/tools-codemode')
      if (lang === 'python') {
        const { default: PyodideCodeRuntime } = await import('@dsh/code-runtime-pyodide')
        await ctx.plugin(PyodideCodeRuntime, { maxWallMs: 120_000, warmWorkers: 1 })
      } else {
        const { default: WorkerCodeRuntime } = await import('@dsh/code-runtime-worker-thread')
        await ctx.plugin(WorkerCodeRuntime, { maxWallMs: 120_000 })
      }
      await ctx.plugin(codeMode, { maxParallelSubCalls: 4 })
    }
    await ctx.plugin(DemoApproval, { workspace, log: policyLog })
    installDemoPolicy(ctx, policyLog)
    timing.install(ctx)
  } catch (error) {
    await ctx.fiber.dispose()
    throw error
  }
  const scope = createScope(ctx, 'fixer')
  // Native only: the Code Mode program calls `tools.glob` directly, so it keeps the full SDK.
  if (mode === 'native') scope.ctx.tools.defer([...DEFERRED_TOOLS])
  return {
    ctx,
    agent: scope.key,
    policyLog,
    timing,
    async dispose() {
      await scope.dispose()
      await ctx.fiber.dispose()
    },
  }
}
