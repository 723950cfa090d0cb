/**
 * The cordis service: registers a {@link WorkerThreadRuntime} as `ctx.codeRuntime` and disposes
 * it — terminating and awaiting every worker, warm ones included — when its fiber ends.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type { CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@dsh/tools-codemode'
import { resolveWorkerThreadRuntimeConfig, WorkerThreadRuntimeConfigSchema } from './config'
import type {
  ResolvedWorkerThreadRuntimeConfig,
  WorkerRuntimeStats,
  WorkerThreadRuntimeConfig,
} from './types'
import { WorkerThreadRuntime } from './worker-thread-runtime'

declare module '@deepseek-ai/cordis' {
  interface Context {
    codeRuntime: CodeRuntime
  }
}

/**
 * `CodeRuntime` service (ctx key `codeRuntime`) running TypeScript programs in fresh worker
 * threads. Plug it with `ctx.plugin(WorkerThreadCodeRuntime, config)`.
 */
export class WorkerThreadCodeRuntime extends Service implements CodeRuntime {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = WorkerThreadRuntimeConfigSchema

  /** Always `'typescript'`. */
  readonly language = 'typescript' as const
  // A plain (not #private) field: cordis hands out proxies of services.
  private readonly runtime: WorkerThreadRuntime

  constructor(ctx: Context, config?: WorkerThreadRuntimeConfig) {
    super(ctx, 'codeRuntime')
    const runtime = new WorkerThreadRuntime(resolveWorkerThreadRuntimeConfig(config))
    this.runtime = runtime
    ctx.effect(() => () => runtime.dispose(), 'code-runtime-worker-thread/workers')
  }

  /** The validated configuration in force. */
  get config(): ResolvedWorkerThreadRuntimeConfig {
    return this.runtime.config
  }

  /** Run one program in a fresh worker; see {@link WorkerThreadRuntime.run}. */
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    return this.runtime.run(request, host)
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): WorkerRuntimeStats {
    return this.runtime.stats()
  }

  /** See {@link WorkerThreadRuntime.whenIdle}. */
  whenIdle(): Promise<void> {
    return this.runtime.whenIdle()
  }
}
