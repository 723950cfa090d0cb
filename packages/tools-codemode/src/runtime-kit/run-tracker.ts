/**
 * The set of a runtime's runs in flight, so `whenIdle` and `dispose` can wait for them. A run
 * leaves the set when its promise settles; the runtime adds its own exit promises (workers
 * still tearing down) to what `whenIdle` waits for.
 */
export class RunTracker {
  readonly #runs = new Set<Promise<unknown>>()

  /** Add `run` until it settles and hand it back unchanged. */
  track<T>(run: Promise<T>): Promise<T> {
    this.#runs.add(run)
    void run.finally(() => this.#runs.delete(run)).catch(() => {})
    return run
  }

  /** The runs in flight now (a snapshot). */
  pending(): Promise<unknown>[] {
    return [...this.#runs]
  }

  /**
   * Resolve once no run is in flight and every promise `exits()` returns has settled; runs and
   * exits that appear while waiting are waited for too. Never rejects.
   */
  async whenIdle(exits: () => Iterable<Promise<unknown>>): Promise<void> {
    for (;;) {
      const pending: Promise<unknown>[] = [...this.#runs, ...exits()]
      if (pending.length === 0) return
      await Promise.allSettled(pending)
    }
  }
}
