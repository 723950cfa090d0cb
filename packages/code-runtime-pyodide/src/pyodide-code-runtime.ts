/**
 * The cordis service: registers a {@link PyodideRuntime} as `ctx.codeRuntime` and disposes it —
 * terminating and awaiting every worker, warm ones included — when its fiber ends.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type { CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@dsh/tools-codemode'
import { PyodideRuntimeConfigSchema, resolvePyodideRuntimeConfig } from './config'
import { PyodideRuntime } from './pyodide-runtime'
import type { PyodideRuntimeConfig, PyodideRuntimeStats, ResolvedPyodideRuntimeConfig } from './types'

declare module '@deepseek-ai/cordis' {
  interface Context {
    codeRuntime: CodeRuntime
  }
}

/**
 * `CodeRuntime` service (ctx key `codeRuntime`) running Python programs, each in a fresh
 * Pyodide interpreter in its own worker thread. Plug it with `ctx.plugin(PyodideCodeRuntime, config)`.
 */
export class PyodideCodeRuntime extends Service implements CodeRuntime {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = PyodideRuntimeConfigSchema

  /** Always `'python'`. */
  readonly language = 'python' as const
  // A plain (not #private) field: cordis hands out proxies of services.
  private readonly runtime: PyodideRuntime

  constructor(ctx: Context, config?: PyodideRuntimeConfig) {
    super(ctx, 'codeRuntime')
    const runtime = new PyodideRuntime(resolvePyodideRuntimeConfig(config))
    this.runtime = runtime
    ctx.effect(() => () => runtime.dispose(), 'code-runtime-pyodide/workers')
  }

  /** The validated configuration in force. */
  get config(): ResolvedPyodideRuntimeConfig {
    return this.runtime.config
  }

  /** Run one program in a fresh interpreter; see {@link PyodideRuntime.run}. */
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    return this.runtime.run(request, host)
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): PyodideRuntimeStats {
    return this.runtime.stats()
  }

  /** See {@link PyodideRuntime.whenIdle}. */
  whenIdle(): Promise<void> {
    return this.runtime.whenIdle()
  }
}
