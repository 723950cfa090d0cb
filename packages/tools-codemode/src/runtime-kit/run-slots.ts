/// <reference path="./worker-threads-pool.d.ts" />
/**
 * The cap on live run workers and the queue of runs waiting for one, carried by
 * `worker-threads-pool` (its `max` and `maxWaiting`): each acquire spawns a fresh `Worker`
 * when a slot is free, waits in the library's FIFO queue otherwise, and fails with "queue full"
 * past `maxWaiting`; a slot is freed when its worker exits.
 *
 * What the library lacks is handled here, in one place:
 * - it acquires through a callback, called on a later tick even when a slot was free: wrapped
 *   into a promise of a {@link SlotGrant};
 * - it cannot take a queued acquire back: an aborted or closed one is removed from the library's
 *   queue (`_queue`, an internal of the pinned 2.0.0; `code-runtime-worker-thread`'s
 *   `tests/run-slots.integration.spec.ts` fails if it changes), so it never spawns a worker and stops
 *   counting against `maxWaiting`;
 * - `maxWaiting: 0` means "unlimited" to the library: a queue of 0 is refused here instead;
 * - its `destroy` uses the deprecated `worker.terminate(callback)`: never called — the worker
 *   pool terminates and awaits its own workers.
 */
import type { Worker, WorkerOptions } from 'node:worker_threads'
import Pool from 'worker-threads-pool'

/** The outcome of {@link RunSlots.acquire}. */
export type SlotGrant =
  | { readonly ok: true; readonly worker: Worker }
  | { readonly ok: false; readonly reason: 'queue-full' | 'aborted' | 'closed' }

type AcquireCallback = (error: Error | null, worker?: Worker) => void

/** Live-worker slots and their waiting queue. */
export class RunSlots {
  readonly #pool: Pool
  readonly #max: number
  readonly #maxQueued: number
  /** Queued acquires, so that {@link close} can refuse them. */
  readonly #waiting = new Map<AcquireCallback, () => void>()
  /** Exits of workers the library spawned for an acquire nobody owned any more (closed or withdrawn). */
  readonly #orphans = new Set<Promise<void>>()
  #closed = false

  constructor(max: number, maxQueued: number) {
    this.#max = max
    this.#maxQueued = maxQueued
    this.#pool = new Pool({ max, maxWaiting: maxQueued })
  }

  /** Workers holding a slot (spawned, not yet exited). */
  get live(): number {
    return this.#pool.size
  }

  /** Acquires waiting for a slot. */
  get queued(): number {
    return this.#waiting.size
  }

  /** Whether an acquire now would spawn at once without overtaking a queued one. */
  get free(): boolean {
    return !this.#closed && this.#pool.size < this.#max && this.#waiting.size === 0
  }

  /**
   * Spawn `new Worker(source, options)` in a slot: at once when one is free, after the queued
   * acquires ahead of it otherwise. Resolves `queue-full` at once when `maxQueued` acquires
   * already wait, `aborted` when `signal` aborts while queued (the acquire is withdrawn), and
   * `closed` after {@link close}.
   */
  acquire(source: string, options: WorkerOptions, signal?: AbortSignal): Promise<SlotGrant> {
    if (this.#closed) return Promise.resolve({ ok: false, reason: 'closed' })
    if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'aborted' })
    if (this.#maxQueued === 0 && !this.free) return Promise.resolve({ ok: false, reason: 'queue-full' })
    return new Promise((resolve) => {
      let withdrawn = false
      const callback: AcquireCallback = (_error, worker) => {
        this.#waiting.delete(callback)
        signal?.removeEventListener('abort', onAbort)
        if (worker === undefined) resolve({ ok: false, reason: 'queue-full' })
        else if (withdrawn || this.#closed) {
          // The library dequeued it (and spawned) in the turn it was withdrawn, or granted it
          // after close: nobody owns it. Terminated, and its exit is awaited by `orphansExited`.
          const exited = new Promise<void>((done) => worker.once('exit', () => done()))
          this.#orphans.add(exited)
          void exited.then(() => this.#orphans.delete(exited))
          worker.ref()
          void worker.terminate().catch(() => {})
          resolve({ ok: false, reason: 'closed' })
        } else resolve({ ok: true, worker })
      }
      const withdraw = (reason: 'aborted' | 'closed') => {
        withdrawn = true
        this.#waiting.delete(callback)
        signal?.removeEventListener('abort', onAbort)
        this.#withdraw(callback)
        resolve({ ok: false, reason })
      }
      const onAbort = () => withdraw('aborted')
      this.#pool.acquire(source, options, callback)
      // Queued by the library (not spawned, not refused as full): withdrawable until granted.
      if (this.#pool._queue.at(-1)?.cb === callback) {
        this.#waiting.set(callback, () => withdraw('closed'))
        signal?.addEventListener('abort', onAbort, { once: true })
      }
    })
  }

  /** Refuse every queued acquire (`closed`) and every later one. Live workers are not touched. */
  close(): void {
    this.#closed = true
    for (const refuse of [...this.#waiting.values()]) refuse()
  }

  /**
   * Settles once every worker spawned for an acquire that was closed or withdrawn before it was
   * granted has exited (they hold a slot and a thread until then; a dispose awaits them).
   */
  async orphansExited(): Promise<void> {
    while (this.#orphans.size > 0) await Promise.all(this.#orphans)
  }

  #withdraw(callback: AcquireCallback): void {
    const queue = this.#pool._queue
    const index = queue.findIndex((entry) => entry.cb === callback)
    if (index >= 0) queue.splice(index, 1)
  }
}
