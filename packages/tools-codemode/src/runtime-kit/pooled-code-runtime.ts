/**
 * The shell every worker-backed `CodeRuntime` extends: admits a run, takes a fresh worker from
 * its {@link WorkerPool}, waits for that worker's boot (abortable), hands the program to the
 * engine's session and returns the worker to the pool; `whenIdle` and `dispose` wait for runs
 * in flight and for every worker's exit. The runtime brings what is its engine's: the pool's
 * workers, the work before a worker is taken, and the session.
 */
import type { CodeLanguage, CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '../code-runtime'
import type { BootFailure } from './await-boot'
import { raceAbort } from './race-abort'
import type { RunRequestParts } from './run-message'
import { failedOutcome, RUN_ABORTED_MESSAGE, RUNTIME_DISPOSED_MESSAGE } from './run-outcome'
import { RunTracker } from './run-tracker'
import type { Semaphore } from './semaphore'
import type { PooledWorker, WorkerPool } from './worker-pool'

/** A pooled worker a run can use: it boots, and can be terminated. */
export interface RunnableWorker extends PooledWorker {
  /** Settles once the worker has booted, or with why it could not; never rejects. */
  readonly booted: Promise<{ readonly ok: true } | BootFailure>
}

/** What the engine's work before a worker is taken gives: the program to run, or the run's outcome. */
export type PreparedProgram =
  | { readonly ok: true; readonly source: string }
  | { readonly ok: false; readonly outcome: CodeRunOutcome }

/** What a runtime hands its {@link PooledCodeRuntime} base. */
export interface PooledRuntimeParts<H extends RunnableWorker> {
  readonly pool: WorkerPool<H>
  /**
   * Permits a run holds from before it takes a worker until that worker has exited, for a
   * runtime whose pool does not cap its runs itself (its warm workers are outside the cap).
   */
  readonly admission?: Semaphore | undefined
  /** The engine's work before a worker is taken (e.g. type stripping); the request's code as is without it. */
  readonly prepare?: ((request: CodeRunRequest) => Promise<PreparedProgram>) | undefined
  /** Run `source` on `handle`, booted; resolves once the program can no longer run, never rejects. */
  readonly session: (handle: H, run: RunRequestParts) => Promise<CodeRunOutcome>
  /** The `abort` message of a run refused because the pool's queue is full. */
  readonly queueFullMessage?: (() => string) | undefined
  /** What else {@link PooledCodeRuntime.dispose} waits for (e.g. a helper worker of the runtime's own). */
  readonly disposeAlso?: (() => Promise<unknown>) | undefined
}

const BOOT_ABORTED: BootFailure = { ok: false, message: 'aborted while the worker was booting' }

/** A `CodeRuntime` running programs on fresh pooled workers; see the module comment. */
export abstract class PooledCodeRuntime<H extends RunnableWorker> implements CodeRuntime {
  /** The language of the programs this runtime runs. */
  abstract readonly language: CodeLanguage
  readonly #parts: PooledRuntimeParts<H>
  readonly #shutdown = new AbortController()
  readonly #runs = new RunTracker()

  /** `parts` are the runtime's pool and engine parts; nothing is spawned here. */
  constructor(parts: PooledRuntimeParts<H>) {
    this.#parts = parts
  }

  /** Whether {@link dispose} has been called. */
  get disposed(): boolean {
    return this.#shutdown.signal.aborted
  }

  /** Runs waiting for a permit or a slot. */
  get queued(): number {
    return this.#parts.pool.queued + (this.#parts.admission?.waiting ?? 0)
  }

  /**
   * Resolves once no run is queued or running and every worker of a settled run has exited
   * (warm workers stay). Runs started while waiting are waited for too.
   */
  whenIdle(): Promise<void> {
    return this.#runs.whenIdle(() => this.#parts.pool.exits())
  }

  /**
   * Run one program. Never rejects: every failure is an outcome. Settles once the program can
   * no longer run (the session's settling); the worker's slot is freed, and {@link dispose}
   * returns, once it has exited.
   */
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    return this.#runs.track(this.#run(request, host))
  }

  /** Stop accepting runs, end running ones as `abort`, and wait until every worker has exited. */
  async dispose(): Promise<void> {
    const { pool, admission, disposeAlso } = this.#parts
    this.#shutdown.abort()
    admission?.close()
    await Promise.all([pool.dispose(), disposeAlso?.(), ...this.#runs.pending()])
    // Runs that settled meanwhile released their workers: those exits are awaited too.
    await pool.dispose()
  }

  #aborted(): CodeRunOutcome {
    return failedOutcome('abort', this.disposed ? RUNTIME_DISPOSED_MESSAGE : RUN_ABORTED_MESSAGE)
  }

  async #run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    const { pool, admission, prepare } = this.#parts
    if (this.disposed || host.signal.aborted) return this.#aborted()
    let source = request.code
    if (prepare !== undefined) {
      const prepared = await prepare(request)
      if (this.disposed || host.signal.aborted) return this.#aborted()
      if (!prepared.ok) return prepared.outcome
      source = prepared.source
    }
    if (admission !== undefined && !(await admission.acquire(host.signal))) return this.#aborted()
    const taken = await pool.take(host.signal)
    if (!taken.ok) {
      admission?.release()
      if (taken.reason === 'queue-full') return failedOutcome('abort', this.#queueFullMessage())
      return this.#aborted()
    }
    const handle = taken.handle
    try {
      const booted = await raceAbort(handle.booted, BOOT_ABORTED, host.signal, this.#shutdown.signal)
      if (!booted.ok) {
        await handle.worker.terminate().catch(() => {})
        await handle.exited
        if (this.disposed || host.signal.aborted) return this.#aborted()
        return failedOutcome('worker-exit', booted.message)
      }
      return await this.#parts.session(handle, {
        source,
        toolNames: request.toolNames,
        host,
        shutdown: this.#shutdown.signal,
      })
    } finally {
      // The worker keeps its slot (and its permit) until it has exited: the cap bounds threads,
      // not just programs.
      pool.release(handle)
      if (admission !== undefined) {
        if (handle.hasExited()) admission.release()
        else void handle.exited.then(() => admission.release())
      }
    }
  }

  #queueFullMessage(): string {
    return this.#parts.queueFullMessage?.() ?? 'the run queue is full'
  }
}
