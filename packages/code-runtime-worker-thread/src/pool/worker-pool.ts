/**
 * Owns every worker the runtime spawns: keeps `warmWorkers` booted ahead of demand, hands each
 * run a fresh one (never reused), and on dispose terminates and awaits all of them.
 */
import { type SpawnOptions, spawnWorkerHandle, type WorkerHandle } from './worker-handle'

/** Spawns, warms and reaps run workers. */
export class WorkerPool {
  readonly #options: SpawnOptions
  readonly #warmTarget: number
  readonly #warm: WorkerHandle[] = []
  readonly #live = new Set<WorkerHandle>()
  readonly #exiting = new Set<WorkerHandle>()
  #running = 0
  #disposed = false

  constructor(options: SpawnOptions, warmTarget: number) {
    this.#options = options
    this.#warmTarget = warmTarget
  }

  /** Workers spawned and not yet exited. */
  get live(): number {
    return this.#live.size
  }

  /** Workers handed to a run and not yet returned. */
  get running(): number {
    return this.#running
  }

  /** Workers waiting for a program (booted or still booting). */
  get warm(): number {
    return this.#warm.length
  }

  /** Workers whose run has settled but whose thread has not exited yet. */
  get exiting(): number {
    return this.#exiting.size
  }

  /** The exits of the workers counted by {@link exiting}. */
  exits(): Promise<number>[] {
    return [...this.#exiting].map((handle) => handle.exited)
  }

  /** Spawn workers until `warmWorkers` are waiting. */
  fill(): void {
    while (!this.#disposed && this.#warm.length < this.#warmTarget) this.#warm.push(this.#spawn())
  }

  /**
   * Take a fresh worker for one run: a warm one if any, otherwise a new spawn. Its replacement
   * starts booting now, not when the run ends: a worker boots for longer than a short run takes,
   * so waiting for the release would leave the warm set short whenever runs follow closely. The
   * spawn is deferred with `setImmediate` so the run's own start goes first.
   */
  take(): WorkerHandle {
    const handle = this.#warm.shift() ?? this.#spawn()
    this.#running += 1
    handle.worker.ref()
    this.#refillSoon()
    return handle
  }

  /**
   * Return a run's worker once its run has settled (the worker is exiting; it stays counted as
   * live, and as exiting, until its `exit` event) and top up the warm set. The refill is
   * deferred with `setImmediate` so the spawn does not delay the continuation of the run that
   * just settled.
   */
  release(handle: WorkerHandle): void {
    this.#running -= 1
    if (!handle.hasExited()) {
      this.#exiting.add(handle)
      void handle.exited.then(() => this.#exiting.delete(handle))
    }
    this.#refillSoon()
  }

  #refillSoon(): void {
    if (!this.#disposed && this.#warm.length < this.#warmTarget) setImmediate(() => this.fill())
  }

  /** Terminate every worker, warm or running, and wait until each has exited. */
  async dispose(): Promise<void> {
    this.#disposed = true
    this.#warm.length = 0
    const handles = [...this.#live]
    for (const handle of handles) void handle.worker.terminate().catch(() => {})
    await Promise.all(handles.map((handle) => handle.exited))
  }

  #spawn(): WorkerHandle {
    const handle = spawnWorkerHandle(this.#options)
    this.#live.add(handle)
    void handle.exited.then(() => {
      this.#live.delete(handle)
      const index = this.#warm.indexOf(handle)
      if (index >= 0) this.#warm.splice(index, 1)
    })
    return handle
  }
}
