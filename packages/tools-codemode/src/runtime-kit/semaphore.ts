/**
 * A FIFO counting semaphore whose waiters can give up (abort) or be refused (close): the cap on
 * how many runs hold a thread at once, for a runtime that keeps its own queue.
 */

/** Counting semaphore with FIFO, abortable waiters. */
export class Semaphore {
  #available: number
  readonly #waiters: Array<(granted: boolean) => void> = []
  #closed = false

  /** A semaphore with `permits` permits (a non-negative integer). */
  constructor(permits: number) {
    if (!Number.isInteger(permits) || permits < 0) {
      throw new RangeError(`a semaphore needs a non-negative integer of permits (got ${permits})`)
    }
    this.#available = permits
  }

  /** Callers waiting for a permit. */
  get waiting(): number {
    return this.#waiters.length
  }

  /**
   * Wait for a permit. Resolves `true` when granted, `false` when `signal` aborts first or the
   * semaphore is closed. A granted permit must be returned with {@link release}.
   */
  acquire(signal?: AbortSignal): Promise<boolean> {
    if (this.#closed || signal?.aborted) return Promise.resolve(false)
    if (this.#available > 0) {
      this.#available -= 1
      return Promise.resolve(true)
    }
    return new Promise((resolve) => {
      const waiter = (granted: boolean) => {
        signal?.removeEventListener('abort', onAbort)
        resolve(granted)
      }
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter)
        if (index >= 0) this.#waiters.splice(index, 1)
        resolve(false)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiters.push(waiter)
    })
  }

  /** Return a permit, handing it straight to the oldest waiter if there is one. */
  release(): void {
    const next = this.#waiters.shift()
    if (next) next(true)
    else this.#available += 1
  }

  /** Refuse every current and later waiter; permits still held may be released as usual. */
  close(): void {
    this.#closed = true
    for (const waiter of this.#waiters.splice(0)) waiter(false)
  }
}
