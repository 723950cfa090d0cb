/**
 * The runtime itself, usable without cordis: type-strips a program, waits for a concurrency
 * slot, hands the program to a fresh pre-spawned worker and returns its outcome once the program
 * can no longer run. The slot is held until the worker has exited.
 */
import type { CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@dsh/tools-codemode'
import {
  failedOutcome,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
  RunTracker,
  raceAbort,
} from '@dsh/tools-codemode/runtime-kit'
import { checkProgram } from './check-program'
import { resolveWorkerThreadRuntimeConfig } from './config'
import { WorkerPool } from './pool/worker-pool'
import { createHostSpinMeter } from './run/host-spin'
import { runSession } from './run/run-session'
import { TypeStripper } from './strip/type-stripper'
import type {
  ResolvedWorkerThreadRuntimeConfig,
  WorkerRuntimeStats,
  WorkerThreadRuntimeConfig,
} from './types'

/**
 * A `CodeRuntime` for TypeScript programs, each run in its own fresh worker thread inside an
 * authority-free `vm` context. Call {@link WorkerThreadRuntime.dispose} when done with it.
 */
export class WorkerThreadRuntime implements CodeRuntime {
  /** Always `'typescript'`. */
  readonly language = 'typescript' as const
  /** The validated configuration in force. */
  readonly config: ResolvedWorkerThreadRuntimeConfig
  readonly #pool: WorkerPool
  readonly #stripper = new TypeStripper()
  readonly #shutdown = new AbortController()
  readonly #runs = new RunTracker()
  readonly #spinMeter = createHostSpinMeter()

  /** Validate `config` (throws `WorkerRuntimeConfigError`) and start warming workers. */
  constructor(config?: WorkerThreadRuntimeConfig | null) {
    this.config = resolveWorkerThreadRuntimeConfig(config)
    this.#pool = new WorkerPool(
      {
        maxOldGenerationSizeMb: this.config.maxOldGenerationSizeMb,
        engine: this.config.engine,
        computeMs: this.config.computeMs,
        isolation: this.config.isolation,
        workerSpinMicros: this.config.workerSpinMicros,
      },
      this.config,
    )
    if (this.config.warmWorkers > 0) {
      this.#pool.fill()
      this.#stripper.warm()
    }
  }

  /** Whether {@link dispose} has been called. */
  get disposed(): boolean {
    return this.#shutdown.signal.aborted
  }

  /** Counts of live, running, exiting and warm workers and of queued runs. */
  stats(): WorkerRuntimeStats {
    return {
      liveWorkers: this.#pool.live,
      runningWorkers: this.#pool.running,
      exitingWorkers: this.#pool.exiting,
      warmWorkers: this.#pool.warm,
      queuedRuns: this.#pool.queued,
      hostSpins: this.#spinMeter.spins,
      hostSpinHits: this.#spinMeter.hits,
      hostSpinMicros: this.#spinMeter.micros,
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
    await Promise.all([this.#pool.dispose(), this.#stripper.dispose(), ...this.#runs.pending()])
    await this.#pool.dispose()
  }

  async #run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    if (this.disposed) return failedOutcome('abort', RUNTIME_DISPOSED_MESSAGE)
    if (host.signal.aborted) return failedOutcome('abort', RUN_ABORTED_MESSAGE)
    const stripped = await this.#stripper.strip(request.code)
    if (this.disposed) return failedOutcome('abort', RUNTIME_DISPOSED_MESSAGE)
    if (host.signal.aborted) return failedOutcome('abort', RUN_ABORTED_MESSAGE)
    if (!stripped.ok) return failedOutcome('exception', stripped.message)
    const refusal = checkProgram(stripped.source)
    if (refusal !== undefined) return failedOutcome('exception', refusal)
    const taken = await this.#pool.take(host.signal)
    if (!taken.ok) {
      if (taken.reason === 'queue-full') return failedOutcome('abort', this.#queueFullMessage())
      return failedOutcome('abort', this.disposed ? RUNTIME_DISPOSED_MESSAGE : RUN_ABORTED_MESSAGE)
    }
    const handle = taken.handle
    try {
      const booted = await raceAbort(
        handle.booted,
        { ok: false, message: 'aborted while the worker was booting' },
        host.signal,
        this.#shutdown.signal,
      )
      if (!booted.ok) {
        await handle.worker.terminate().catch(() => {})
        await handle.exited
        if (this.disposed) return failedOutcome('abort', RUNTIME_DISPOSED_MESSAGE)
        if (host.signal.aborted) return failedOutcome('abort', RUN_ABORTED_MESSAGE)
        return failedOutcome('worker-exit', booted.message)
      }
      return await runSession(handle, {
        source: stripped.source,
        toolNames: request.toolNames,
        host,
        config: this.config,
        shutdown: this.#shutdown.signal,
        spinMeter: this.#spinMeter,
      })
    } finally {
      // The worker keeps its slot until it has exited: the cap bounds threads, not just programs.
      this.#pool.release(handle)
    }
  }

  #queueFullMessage(): string {
    const { maxConcurrentRuns, maxQueuedRuns } = this.config
    return `the run queue is full: ${maxConcurrentRuns} workers (maxConcurrentRuns) are busy and ${maxQueuedRuns} runs (maxQueuedRuns) already wait`
  }
}

/** Create a {@link WorkerThreadRuntime} without cordis (tests, benchmarks, other hosts). */
export function createWorkerThreadRuntime(config?: WorkerThreadRuntimeConfig | null): WorkerThreadRuntime {
  return new WorkerThreadRuntime(config)
}
