/**
 * The runtime itself, usable without cordis: type-strips a program, waits for a concurrency
 * slot, hands the program to a fresh pre-spawned worker and returns its outcome once the program
 * can no longer run. The slot is held until the worker has exited. The shell (pool, boot wait,
 * `run`, `whenIdle`, `dispose`) is the runtime kit's `PooledCodeRuntime`; the engine parts are
 * the type stripper, the program check, the workers and the session.
 */
import {
  failedOutcome,
  PooledCodeRuntime,
  type PreparedProgram,
  WorkerPool,
} from '@dsh/tools-codemode/runtime-kit'
import { checkProgram } from './check-program'
import { resolveWorkerThreadRuntimeConfig } from './config'
import { runWorkerSpawn, type WorkerHandle } from './pool/worker-handle'
import { createHostSpinMeter, type HostSpinMeter } from './run/host-spin'
import { runSession } from './run/run-session'
import { TypeStripper } from './strip/type-stripper'
import type {
  ResolvedWorkerThreadRuntimeConfig,
  WorkerRuntimeStats,
  WorkerThreadRuntimeConfig,
} from './types'

/** Type-strip and check a program before a worker is taken for it. */
async function prepareProgram(stripper: TypeStripper, code: string): Promise<PreparedProgram> {
  const stripped = await stripper.strip(code)
  if (!stripped.ok) return { ok: false, outcome: failedOutcome('exception', stripped.message) }
  const refusal = checkProgram(stripped.source)
  if (refusal !== undefined) return { ok: false, outcome: failedOutcome('exception', refusal) }
  return { ok: true, source: stripped.source }
}

/**
 * A `CodeRuntime` for TypeScript programs, each run in its own fresh worker thread inside an
 * authority-free `vm` context. Call {@link WorkerThreadRuntime.dispose} when done with it.
 */
export class WorkerThreadRuntime extends PooledCodeRuntime<WorkerHandle> {
  /** Always `'typescript'`. */
  readonly language = 'typescript' as const
  /** The validated configuration in force. */
  readonly config: ResolvedWorkerThreadRuntimeConfig
  readonly #pool: WorkerPool<WorkerHandle>
  readonly #spinMeter: HostSpinMeter

  /** Validate `config` (throws `WorkerRuntimeConfigError`) and start warming workers. */
  constructor(config?: WorkerThreadRuntimeConfig | null) {
    const resolved = resolveWorkerThreadRuntimeConfig(config)
    const spawnOptions = {
      maxOldGenerationSizeMb: resolved.maxOldGenerationSizeMb,
      engine: resolved.engine,
      computeMs: resolved.computeMs,
      isolation: resolved.isolation,
      workerSpinMicros: resolved.workerSpinMicros,
    }
    // Warm, running and exiting workers all hold one of the `maxConcurrentRuns` slots.
    const pool = new WorkerPool(() => runWorkerSpawn(spawnOptions), {
      warmWorkers: resolved.warmWorkers,
      maxLiveWorkers: resolved.maxConcurrentRuns,
      maxQueuedRuns: resolved.maxQueuedRuns,
    })
    const stripper = new TypeStripper()
    const spinMeter = createHostSpinMeter()
    super({
      pool,
      prepare: (request) => prepareProgram(stripper, request.code),
      session: (handle, run) => runSession(handle, { ...run, config: resolved, spinMeter }),
      queueFullMessage: () =>
        `the run queue is full: ${resolved.maxConcurrentRuns} workers (maxConcurrentRuns) are busy and ${resolved.maxQueuedRuns} runs (maxQueuedRuns) already wait`,
      disposeAlso: () => stripper.dispose(),
    })
    this.config = resolved
    this.#pool = pool
    this.#spinMeter = spinMeter
    if (resolved.warmWorkers > 0) {
      pool.fill()
      stripper.warm()
    }
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): WorkerRuntimeStats {
    return {
      liveWorkers: this.#pool.live,
      runningWorkers: this.#pool.running,
      exitingWorkers: this.#pool.exiting,
      warmWorkers: this.#pool.warm,
      queuedRuns: this.queued,
      hostSpins: this.#spinMeter.spins,
      hostSpinHits: this.#spinMeter.hits,
      hostSpinMicros: this.#spinMeter.micros,
    }
  }
}

/** Create a {@link WorkerThreadRuntime} without cordis (tests, benchmarks, other hosts). */
export function createWorkerThreadRuntime(config?: WorkerThreadRuntimeConfig | null): WorkerThreadRuntime {
  return new WorkerThreadRuntime(config)
}
