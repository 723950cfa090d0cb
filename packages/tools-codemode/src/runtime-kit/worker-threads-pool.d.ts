/**
 * Types of `worker-threads-pool` 2.0.0 (it ships none): the public API this package uses, plus
 * the one internal `RunSlots` relies on to remove a queued acquire (pinned version; see
 * `run-slots.ts`).
 */
declare module 'worker-threads-pool' {
  import type { Worker, WorkerOptions } from 'node:worker_threads'

  /** A queued acquire, as the library stores it. */
  interface QueuedAcquire {
    readonly cb: (error: Error | null, worker?: Worker) => void
  }

  /** Caps live workers (`max`) and queues acquires beyond it (`maxWaiting`). */
  export default class Pool {
    constructor(options?: { max?: number; maxWaiting?: number })
    /** Workers spawned by the pool whose `error` or `exit` has not been seen. */
    readonly size: number
    /** Internal FIFO of acquires waiting for a slot. */
    readonly _queue: QueuedAcquire[]
    acquire(
      filename: string,
      options: WorkerOptions | undefined,
      callback: (error: Error | null, worker?: Worker) => void,
    ): void
    destroy(callback?: () => void): void
  }
}
