/**
 * Stopping a run's program early (SPEC §13.3), apart from ending the run: the program's signal
 * (what the runtime watches) follows the run-scoped signal, and also aborts when the run
 * diverges from its ledger or suspends — while the sub-calls it started keep their own signal
 * and may settle, to be recorded.
 */

/**
 * How long (ms) a suspending run's program keeps running with no sub-call of it running, before
 * it is stopped: the time its other calls of the same moment (`Promise.all` siblings) have to
 * reach the host and ask too. It bounds only how many approvals one suspension collects, never
 * what the ledger records: a call that arrives later is asked on resume instead.
 */
export const SUSPEND_QUIET_MS = 100

/** The program's stop switch of one run. */
export class ProgramStop {
  readonly #program = new AbortController()
  #quiet: ReturnType<typeof setTimeout> | undefined
  #latest: ReturnType<typeof setTimeout> | undefined

  /** `latestMs`: a suspending program stops at the latest this long after the first ask. */
  constructor(
    runSignal: AbortSignal,
    private readonly latestMs: number,
  ) {
    if (runSignal.aborted) this.#program.abort(runSignal.reason)
    else runSignal.addEventListener('abort', () => this.#program.abort(runSignal.reason), { once: true })
  }

  /** The program's signal (`CodeRunHost.signal`). */
  get signal(): AbortSignal {
    return this.#program.signal
  }

  /** Stop the program now. */
  stop(reason: string): void {
    this.dispose()
    this.#program.abort(new Error(reason))
  }

  /**
   * The run suspends; `busy` counts its sub-calls still running. The program stops once nothing
   * has been running for {@link SUSPEND_QUIET_MS}, and at the latest `latestMs` after the first
   * call of this. Call it again whenever a sub-call settles.
   */
  suspending(busy: number): void {
    if (this.#program.signal.aborted) return
    const stop = () => this.stop('the run suspended for approval')
    this.#latest ??= setTimeout(stop, this.latestMs)
    clearTimeout(this.#quiet)
    this.#quiet = busy === 0 ? setTimeout(stop, SUSPEND_QUIET_MS) : undefined
  }

  /** Drop the timers (the run ended). */
  dispose(): void {
    clearTimeout(this.#quiet)
    clearTimeout(this.#latest)
  }
}
