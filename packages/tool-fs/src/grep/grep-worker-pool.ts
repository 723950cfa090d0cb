import { Worker } from 'node:worker_threads'
import { GrepWorkerLease } from './grep-worker-lease'
import { grepWorkerSource } from './grep-worker-source'

/** Idle workers kept warm for the next call; the rest end when their call does. */
const MAX_IDLE_WORKERS = 2
/** An idle worker ends after this long unused, so a quiet host holds no threads. */
const IDLE_MS = 10_000
/** Heap cap of a grep worker: one file's text (≤ `maxGrepFileBytes`) and RE2's caches fit. */
const WORKER_HEAP_MB = 256

/**
 * Grep worker threads for one plugin instance. Each `grep` call leases a worker for its sole
 * use; a call that finishes cleanly returns it (kept warm, unref'd, for a while), a call that
 * runs out of budget or is aborted terminates it. `close()` terminates every worker.
 */
export class GrepWorkerPool {
  readonly #idle: { worker: Worker; timer: NodeJS.Timeout }[] = []
  readonly #live = new Set<Worker>()
  #source: string | undefined
  #closed = false

  /** Worker threads alive now (leased or idle). */
  get liveWorkers(): number {
    return this.#live.size
  }

  /** Lease a worker for one call; `budgetMs` bounds the whole lease, `signal` ends it early. */
  lease(signal: AbortSignal, budgetMs: number): GrepWorkerLease {
    if (this.#closed) throw new Error('grep worker pool is closed')
    const idle = this.#idle.pop()
    if (idle !== undefined) clearTimeout(idle.timer)
    const worker = idle?.worker ?? this.#start()
    worker.ref()
    return new GrepWorkerLease(worker, signal, budgetMs, (healthy) => this.#settle(worker, healthy))
  }

  /** Terminate every worker; later leases throw. */
  async close(): Promise<void> {
    this.#closed = true
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

  #settle(worker: Worker, healthy: boolean): void {
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
