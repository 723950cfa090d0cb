/**
 * The runtime itself, usable without cordis: waits for a concurrency slot, hands the program to
 * a fresh pre-booted interpreter in its own worker and returns its outcome once the program can
 * no longer run. The slot is held until the worker has exited.
 */
import type { CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@dsh/tools-codemode'
import {
  failedOutcome,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
  RunTracker,
  raceAbort,
  Semaphore,
} from '@dsh/tools-codemode/runtime-kit'
import { resolvePyodideRuntimeConfig } from './config'
import { type MemoryBudget, memoryBudget } from './memory-budget'
import type { BootResult } from './pool/worker-handle'
import { WorkerPool } from './pool/worker-pool'
import { runSession } from './run/run-session'
import type { PyodideRuntimeConfig, PyodideRuntimeStats, ResolvedPyodideRuntimeConfig } from './types'

const bootAborted: BootResult = { ok: false, message: 'aborted while the worker was booting' }

/**
 * A `CodeRuntime` for Python programs, each run in its own fresh Pyodide interpreter in its own
 * worker thread, without ambient authority. Call {@link PyodideRuntime.dispose} when done with it.
 */
export class PyodideRuntime implements CodeRuntime {
  /** Always `'python'`. */
  readonly language = 'python' as const
  /** The validated configuration in force. */
  readonly config: ResolvedPyodideRuntimeConfig
  /** How `config.maxMemoryMb` is split across one run's parts. */
  readonly memoryBudget: MemoryBudget
  readonly #pool: WorkerPool
  readonly #slots: Semaphore
  readonly #shutdown = new AbortController()
  readonly #runs = new RunTracker()

  /** Validate `config` (throws `PyodideRuntimeConfigError`) and start booting warm interpreters. */
  constructor(config?: PyodideRuntimeConfig | null) {
    this.config = resolvePyodideRuntimeConfig(config)
    this.memoryBudget = memoryBudget(this.config)
    this.#pool = new WorkerPool(
      {
        maxOldGenerationSizeMb: this.memoryBudget.oldGenerationMb,
        maxYoungGenerationSizeMb: this.memoryBudget.youngGenerationMb,
        interpreterLimitBytes: this.memoryBudget.interpreterBytes,
      },
      this.config.warmWorkers,
    )
    this.#slots = new Semaphore(this.config.maxConcurrentRuns)
    this.#pool.fill()
  }

  /** Whether {@link dispose} has been called. */
  get disposed(): boolean {
    return this.#shutdown.signal.aborted
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): PyodideRuntimeStats {
    return {
      liveWorkers: this.#pool.live,
      runningWorkers: this.#pool.running,
      exitingWorkers: this.#pool.exiting,
      warmWorkers: this.#pool.warm,
      queuedRuns: this.#slots.waiting,
      snapshotBoots: this.#pool.boots.snapshot,
      plainBoots: this.#pool.boots.plain,
    }
  }

  /**
   * Resolves once no run is queued or running and every worker of a settled run has exited
   * (warm workers stay). Runs started while waiting are waited for too.
   */
  whenIdle(): Promise<void> {
    return this.#runs.whenIdle(() => this.#pool.exits())
  }

  /**
   * Run one program. Never rejects: every failure is an outcome. Settles once the program can
   * no longer run (on its completion, or after a killed worker's exit: the runtime kit's
   * `RunDriver`); its slot is freed, and {@link dispose} returns, once the worker has exited.
   */
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    return this.#runs.track(this.#run(request, host))
  }

  /** Stop accepting runs, end running ones as `abort`, and wait until every worker has exited. */
  async dispose(): Promise<void> {
    this.#shutdown.abort()
    this.#slots.close()
    await Promise.all([this.#pool.dispose(), ...this.#runs.pending()])
    await this.#pool.dispose()
  }

  async #run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    const aborted = (): CodeRunOutcome =>
      failedOutcome('abort', this.disposed ? RUNTIME_DISPOSED_MESSAGE : RUN_ABORTED_MESSAGE)
    if (this.disposed || host.signal.aborted) return aborted()
    if (!(await this.#slots.acquire(host.signal))) return aborted()
    const handle = this.#pool.take()
    try {
      const booted = await raceAbort(handle.booted, bootAborted, host.signal, this.#shutdown.signal)
      if (!booted.ok) {
        await handle.worker.terminate().catch(() => {})
        await handle.exited
        if (this.disposed || host.signal.aborted) return aborted()
        return failedOutcome('worker-exit', booted.message)
      }
      return await runSession(handle, {
        source: request.code,
        toolNames: request.toolNames,
        host,
        config: this.config,
        budget: this.memoryBudget,
        shutdown: this.#shutdown.signal,
      })
    } finally {
      this.#pool.release(handle)
      // The slot bounds threads, not just programs: it is returned when the worker is gone.
      if (handle.hasExited()) this.#slots.release()
      else void handle.exited.then(() => this.#slots.release())
    }
  }
}

/** Create a {@link PyodideRuntime} without cordis (tests, benchmarks, other hosts). */
export function createPyodideRuntime(config?: PyodideRuntimeConfig | null): PyodideRuntime {
  return new PyodideRuntime(config)
}
