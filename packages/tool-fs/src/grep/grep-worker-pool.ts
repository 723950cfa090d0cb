import { Worker } from 'node:worker_threads'
import { GrepWorkerLease } from './grep-worker-lease'
import { grepWorkerSource } from './grep-worker-source'

/** Idle workers kept warm for the next call; the rest end when their call does. */
const MAX_IDLE_WORKERS = 2
/** Workers alive at once: parallel grep calls beyond this wait for one to finish. */
const MAX_WORKERS = 4
/** An idle worker ends after this long unused, so a quiet host holds no threads. */
const IDLE_MS = 10_000
/** Heap cap of a grep worker: one file's text (≤ `maxGrepFileBytes`) and RE2's caches fit. */
const WORKER_HEAP_MB = 256

/**
 * Grep worker threads for one plugin instance. Each `grep` call leases a worker for its sole
 * use; a call that finishes cleanly returns it (kept warm, unref'd, for a while), a call that
 * runs out of budget or is aborted terminates it. At most four workers (each with a 256 MB
 * heap cap) live at once; further calls wait their turn. `close()` terminates every worker.
 */
export class GrepWorkerPool {
  readonly #idle: { worker: Worker; timer: NodeJS.Timeout }[] = []
  readonly #live = new Set<Worker>()
  readonly #waiting: (() => void)[] = []
  #leased = 0
  #source: string | undefined
  #closed = false

  /** Workers leased to calls now (at most four). */
  get leasedWorkers(): number {
    return this.#leased
  }

  /** Worker threads alive now (leased or idle). */
  get liveWorkers(): number {
    return this.#live.size
  }

  /**
   * Lease a worker for one call, waiting while {@link MAX_WORKERS} are leased; `budgetMs` bounds
   * the lease from when it starts, `signal` ends the wait or the lease early.
   */
  async lease(signal: AbortSignal, budgetMs: number): Promise<GrepWorkerLease> {
    signal.throwIfAborted()
    while (this.#leased >= MAX_WORKERS && !this.#closed) {
      await this.#turn(signal)
      signal.throwIfAborted()
    }
    if (this.#closed) throw new Error('grep worker pool is closed')
    this.#leased++
    const idle = this.#idle.pop()
    if (idle !== undefined) clearTimeout(idle.timer)
    const worker = idle?.worker ?? this.#start()
    worker.ref()
    return new GrepWorkerLease(worker, signal, budgetMs, (healthy) => this.#settle(worker, healthy))
  }

  /** Terminate every worker; later leases throw. */
  async close(): Promise<void> {
    this.#closed = true
    for (const wake of this.#waiting.splice(0)) wake()
    for (const { timer } of this.#idle.splice(0)) clearTimeout(timer)
    await Promise.all([...this.#live].map((worker) => worker.terminate()))
  }

  #start(): Worker {
    this.#source ??= grepWorkerSource()
    const worker = new Worker(this.#source, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    })
    this.#live.add(worker)
    worker.once('exit', () => this.#live.delete(worker))
    // Failures are observed by the lease; this keeps an error with no lease from being unhandled.
    worker.on('error', () => {})
    return worker
  }

  /** Wait for a lease to end; `signal` is not aborted yet (checked by the caller). */
  #turn(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener('abort', abort)
        resolve()
      }
      const abort = () => {
        this.#waiting.splice(this.#waiting.indexOf(wake), 1)
        reject(signal.reason)
      }
      signal.addEventListener('abort', abort, { once: true })
      this.#waiting.push(wake)
    })
  }

  #settle(worker: Worker, healthy: boolean): void {
    this.#leased--
    this.#waiting.shift()?.()
    if (!healthy || this.#closed || this.#idle.length >= MAX_IDLE_WORKERS) {
      void worker.terminate()
      return
    }
    worker.unref()
    const timer = setTimeout(() => {
      const index = this.#idle.findIndex((entry) => entry.worker === worker)
      if (index !== -1) this.#idle.splice(index, 1)
      void worker.terminate()
    }, IDLE_MS)
    timer.unref()
    this.#idle.push({ worker, timer })
  }
}
