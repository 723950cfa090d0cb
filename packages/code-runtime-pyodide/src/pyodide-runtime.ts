/**
 * The runtime itself, usable without cordis: waits for a concurrency slot, hands the program to
 * a fresh pre-booted interpreter in its own worker and returns its outcome once the program can
 * no longer run. The slot is held until the worker has exited. The shell (admission, boot wait,
 * `run`, `whenIdle`, `dispose`) is the runtime kit's `PooledCodeRuntime`; the Pyodide parts are
 * the workers and the session.
 */
import { PooledCodeRuntime, Semaphore } from '@dsh/tools-codemode/runtime-kit'
import { resolvePyodideRuntimeConfig } from './config'
import { type MemoryBudget, memoryBudget } from './memory-budget'
import { PyodideWorkers } from './pool/pyodide-workers'
import type { WorkerHandle } from './pool/worker-handle'
import { runSession } from './run/run-session'
import type { PyodideRuntimeConfig, PyodideRuntimeStats, ResolvedPyodideRuntimeConfig } from './types'

/**
 * A `CodeRuntime` for Python programs, each run in its own fresh Pyodide interpreter in its own
 * worker thread, without ambient authority. Call {@link PyodideRuntime.dispose} when done with it.
 */
export class PyodideRuntime extends PooledCodeRuntime<WorkerHandle> {
  /** Always `'python'`. */
  readonly language = 'python' as const
  /** The validated configuration in force. */
  readonly config: ResolvedPyodideRuntimeConfig
  /** How `config.maxMemoryMb` is split across one run's parts. */
  readonly memoryBudget: MemoryBudget
  readonly #workers: PyodideWorkers

  /** Validate `config` (throws `PyodideRuntimeConfigError`) and start booting warm interpreters. */
  constructor(config?: PyodideRuntimeConfig | null) {
    const resolved = resolvePyodideRuntimeConfig(config)
    const budget = memoryBudget(resolved)
    const workers = new PyodideWorkers(
      {
        maxOldGenerationSizeMb: budget.oldGenerationMb,
        maxYoungGenerationSizeMb: budget.youngGenerationMb,
        interpreterLimitBytes: budget.interpreterBytes,
      },
      resolved,
    )
    super({
      pool: workers.pool,
      // Runs hold a permit until their worker has exited; warm interpreters are outside the cap.
      admission: new Semaphore(resolved.maxConcurrentRuns),
      session: (handle, run) => runSession(handle, { ...run, config: resolved, budget }),
      disposeAlso: () => workers.releaseSnapshot(),
    })
    this.config = resolved
    this.memoryBudget = budget
    this.#workers = workers
    workers.pool.fill()
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): PyodideRuntimeStats {
    const { pool, boots } = this.#workers
    return {
      liveWorkers: pool.live,
      runningWorkers: pool.running,
      exitingWorkers: pool.exiting,
      warmWorkers: pool.warm,
      queuedRuns: this.queued,
      snapshotBoots: boots.snapshot,
      plainBoots: boots.plain,
      sharedModuleBoots: boots.sharedModule,
    }
  }
}

/** Create a {@link PyodideRuntime} without cordis (tests, benchmarks, other hosts). */
export function createPyodideRuntime(config?: PyodideRuntimeConfig | null): PyodideRuntime {
  return new PyodideRuntime(config)
}
