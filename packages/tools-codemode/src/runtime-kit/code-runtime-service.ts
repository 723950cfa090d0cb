/**
 * The cordis service shell of a code runtime: registers the runtime as `ctx.codeRuntime` and
 * disposes it — terminating and awaiting every worker, warm ones included — when the plugin's
 * fiber ends. A runtime package subclasses it with its language, its `Config` and its runtime.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type { CodeLanguage, CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '../code-runtime'

/** What the service wraps: a runtime with a config, stats, an idle wait and a disposal. */
export interface ServedCodeRuntime extends CodeRuntime {
  readonly config: unknown
  stats(): unknown
  whenIdle(): Promise<void>
  dispose(): Promise<void>
}

/** `CodeRuntime` service (ctx key `codeRuntime`) delegating to a {@link ServedCodeRuntime}. */
export abstract class CodeRuntimeService<R extends ServedCodeRuntime> extends Service implements CodeRuntime {
  /** The language of the programs this runtime runs. */
  abstract readonly language: CodeLanguage
  // A plain (not #private) field: cordis hands out proxies of services.
  protected readonly runtime: R

  /** Provide `runtime` as `ctx.codeRuntime`; `effect` names the disposal in the fiber's effects. */
  constructor(ctx: Context, runtime: R, effect: string) {
    super(ctx, 'codeRuntime')
    this.runtime = runtime
    ctx.effect(() => () => runtime.dispose(), effect)
  }

  /** The validated configuration in force. */
  get config(): R['config'] {
    return this.runtime.config
  }

  /** Run one program on a fresh worker; see the runtime's `run`. */
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    return this.runtime.run(request, host)
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): ReturnType<R['stats']> {
    return this.runtime.stats() as ReturnType<R['stats']>
  }

  /** Resolves once no run is queued or running and every settled run's worker has exited. */
  whenIdle(): Promise<void> {
    return this.runtime.whenIdle()
  }
}
