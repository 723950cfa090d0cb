/**
 * The cordis service: registers a {@link WorkerThreadRuntime} as `ctx.codeRuntime` and disposes
 * it — terminating and awaiting every worker, warm ones included — when its fiber ends (the
 * runtime kit's `CodeRuntimeService`).
 */
import type { Context } from '@deepseek-ai/cordis'
import { CodeRuntimeService } from '@dsh/tools-codemode/runtime-kit'
import { resolveWorkerThreadRuntimeConfig, WorkerThreadRuntimeConfigSchema } from './config'
import type { WorkerThreadRuntimeConfig } from './types'
import { WorkerThreadRuntime } from './worker-thread-runtime'

/**
 * `CodeRuntime` service (ctx key `codeRuntime`) running TypeScript programs in fresh worker
 * threads. Plug it with `ctx.plugin(WorkerThreadCodeRuntime, config)`.
 */
export class WorkerThreadCodeRuntime extends CodeRuntimeService<WorkerThreadRuntime> {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = WorkerThreadRuntimeConfigSchema

  /** Always `'typescript'`. */
  readonly language = 'typescript' as const

  constructor(ctx: Context, config?: WorkerThreadRuntimeConfig) {
    super(
      ctx,
      new WorkerThreadRuntime(resolveWorkerThreadRuntimeConfig(config)),
      'code-runtime-worker-thread/workers',
    )
  }
}
