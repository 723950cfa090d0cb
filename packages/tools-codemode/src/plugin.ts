/**
 * The Code Mode cordis plugin: provides the `run_code` transport and its prompt sections to
 * the tool runtime while a code runtime (`codeRuntime`) is loaded, and a stand-in provider that
 * names the missing runtime while none is.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createScopedEmitter, isToolsError, ToolErrorCode, type ToolStateStore } from '@dsh/tools-core'
import type { BridgeEnvironment } from './bridge'
import { type CodeModeConfig, CodeModeConfigSchema, DEFAULT_CODE_MODE_CONFIG } from './config'
import type { DurableRuns } from './durable/durable-runs'
import { createRunResumer } from './durable/resume-run'
import { RUN_TICKET_KIND } from './durable/run-ticket'
import { missingRuntimeProvider } from './missing-runtime'
import { executeRunCode } from './run-code'
import { codeModeSections } from './sdk/sections'
import { createRunCodeTransport } from './transport'

/** Plugin name. */
export const name = 'tools-codemode'

/**
 * Required services: the tool runtime. The code runtime (`codeRuntime`) is awaited inside:
 * while it is loaded the plugin provides the real `run_code`; while it is not, a `code`/`both`
 * assembly and every `run_code` call fail with `CODE_RUNTIME_MISSING`, naming the runtime
 * packages to load.
 */
export const inject = ['tools']

/** Config validator: `maxParallelSubCalls` and the per-run limits, each an integer ≥ 1 (see `CodeModeConfig`). */
export const Config = CodeModeConfigSchema

/**
 * Install the stand-in provider now, and swap it for the real one for as long as a code runtime
 * is loaded. Both are disposed with this plugin's fiber.
 */
export function apply(ctx: Context, config?: CodeModeConfig): void {
  let removeStandIn: (() => void) | undefined = ctx.tools.provideCodeMode(missingRuntimeProvider())
  const restoreStandIn = (): void => {
    try {
      removeStandIn = ctx.tools.provideCodeMode(missingRuntimeProvider())
    } catch (error) {
      // The runtime went because this plugin (or the tool runtime) is going: nothing to restore.
      if (!isToolsError(error) || error.code !== ToolErrorCode.RUNTIME_DISPOSED) throw error
    }
  }
  ctx.inject(['codeRuntime'], (inner) => {
    inner.effect(() => {
      removeStandIn?.()
      removeStandIn = undefined
      const removeProvider = provideRuntime(inner, config)
      return () => {
        removeProvider()
        restoreStandIn()
      }
    }, 'tools-codemode/provider')
  })
}

/** Register the real provider for the loaded code runtime; returns its remover. */
function provideRuntime(ctx: Context, config: CodeModeConfig | undefined): () => void {
  const runtime = ctx.codeRuntime
  // Disposing the plugin (or the code runtime or context it depends on) aborts every run still
  // going: each one ends `ABORTED` once its program has stopped.
  const shutdown = new AbortController()
  ctx.effect(() => () => shutdown.abort(), 'tools-codemode/runs')
  const durable = durableRuns(ctx, runtime.language)
  const env: BridgeEnvironment & { readonly durable: DurableRuns } = {
    tools: ctx.tools,
    runtime,
    events: createScopedEmitter(ctx),
    limits: { ...DEFAULT_CODE_MODE_CONFIG, ...config },
    shutdown: shutdown.signal,
    durable,
  }
  const transport = createRunCodeTransport({
    language: runtime.language,
    execute: (args, exec) => executeRunCode(env, args, exec),
  })
  const removeProvider = ctx.tools.provideCodeMode({
    transport,
    sections: (input) => codeModeSections(runtime.language, input),
  })
  const removeResumer = ctx.tools.provideResumer(RUN_TICKET_KIND, createRunResumer(durable, ctx.tools))
  return () => {
    removeResumer()
    removeProvider()
  }
}

/** A day: how long a run record outlives its approvals when no approval service says otherwise. */
const DEFAULT_RETAIN_MS = 24 * 60 * 60 * 1000

/**
 * The durable side of the runs (SPEC §13.3): the store and the approval service are looked up
 * per use, as tools-core does, since either may be loaded or disposed at any time.
 */
function durableRuns(ctx: Context, language: DurableRuns['language']): DurableRuns {
  const get = ctx.get.bind(ctx) as (name: string) => unknown
  const approval = () => get('approval') as { leaseMs?: unknown; retainMs?: unknown } | undefined
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback
  return {
    store: () => {
      const store = get('toolStore') as ToolStateStore | undefined
      return typeof store?.create === 'function' ? store : undefined
    },
    language,
    leaseMs: () => number(approval()?.leaseMs, 30_000),
    retainMs: () => number(approval()?.retainMs, DEFAULT_RETAIN_MS),
    replays: new Map(),
  }
}
