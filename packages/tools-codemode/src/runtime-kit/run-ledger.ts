/**
 * A worker pool's count of workers in a run and of workers whose run has settled but whose
 * thread has not exited yet. A run's worker is never reused, so once released it only waits for
 * its exit; `whenIdle` waits for those exits too.
 */

/** What the ledger reads of a worker: its exit. */
export interface ExitingWorker<E = unknown> {
  /** Settles when the thread has exited; never rejects. */
  readonly exited: Promise<E>
  hasExited(): boolean
}

/** Running and exiting workers of one pool (see the module comment). */
export class RunLedger<H extends ExitingWorker> {
  readonly #exiting = new Set<H>()
  #running = 0

  /** Workers handed to a run and not yet released. */
  get running(): number {
    return this.#running
  }

  /** Released workers whose thread has not exited yet. */
  get exiting(): number {
    return this.#exiting.size
  }

  /** The exits of the workers counted by {@link exiting}. */
  exits(): H['exited'][] {
    return [...this.#exiting].map((handle) => handle.exited)
  }

  /** A worker was handed to a run. */
  taken(): void {
    this.#running += 1
  }

  /** A run's worker was released: it counts as exiting until its exit. */
  released(handle: H): void {
    this.#running -= 1
    if (handle.hasExited()) return
    this.#exiting.add(handle)
    void handle.exited.then(() => this.#exiting.delete(handle))
  }
}
