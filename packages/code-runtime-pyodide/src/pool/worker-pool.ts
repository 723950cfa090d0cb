/**
 * Owns every worker the runtime spawns: keeps `warmWorkers` booted ahead of demand, hands each
 * run a fresh one (never reused), and on dispose terminates and awaits all of them.
 */
import { RunLedger } from '@dsh/tools-codemode/runtime-kit'
import { acquireSnapshot, releaseSnapshot } from './snapshot-store'
import { type SpawnOptions, spawnWorkerHandle, type WorkerHandle } from './worker-handle'

/** Spawns, warms and reaps run workers. */
export class WorkerPool {
  readonly #options: SpawnOptions
  readonly #warmTarget: number
  readonly #warm: WorkerHandle[] = []
  readonly #live = new Set<WorkerHandle>()
  readonly #ledger = new RunLedger<WorkerHandle>()
  #disposed = false
  #snapshot: Promise<SharedArrayBuffer | undefined> | undefined
  #snapshotBoots = 0
  #plainBoots = 0

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
    return this.#ledger.running
  }

  /** Workers waiting for a program (booted or still booting). */
  get warm(): number {
    return this.#warm.length
  }

  /** Workers whose run has settled but whose thread has not exited yet. */
  get exiting(): number {
    return this.#ledger.exiting
  }

  /** Workers booted from the process's memory snapshot, and booted plainly. */
  get boots(): { readonly snapshot: number; readonly plain: number } {
    return { snapshot: this.#snapshotBoots, plain: this.#plainBoots }
  }

  /** The exits of the workers counted by {@link exiting}. */
  exits(): Promise<number>[] {
    return this.#ledger.exits()
  }

  /** Spawn workers until `warmWorkers` are waiting. */
  fill(): void {
    while (!this.#disposed && this.#warm.length < this.#warmTarget) this.#warm.push(this.#spawn())
  }

  /** Take a fresh worker for one run: a warm one if any, otherwise a new spawn. */
  take(): WorkerHandle {
    const handle = this.#warm.shift() ?? this.#spawn()
    this.#ledger.taken()
    handle.worker.ref()
    return handle
  }

  /**
   * Return a run's worker once its run has settled (the worker is exiting; it stays counted as
   * live, and as exiting, until its `exit` event) and top up the warm set. The refill is
   * deferred with `setImmediate` so the spawn does not delay the continuation of the run that
   * just settled.
   */
  release(handle: WorkerHandle): void {
    this.#ledger.released(handle)
    if (!this.#disposed && this.#warm.length < this.#warmTarget) setImmediate(() => this.fill())
  }

  /** Terminate every worker, warm or running, and wait until each has exited. */
  async dispose(): Promise<void> {
    this.#disposed = true
    this.#warm.length = 0
    const handles = [...this.#live]
    for (const handle of handles) void handle.worker.terminate().catch(() => {})
    await Promise.all([releaseSnapshot(this), ...handles.map((handle) => handle.exited)])
  }

  #spawn(): WorkerHandle {
    // The snapshot is requested by the first spawn, so a runtime that never boots makes none.
    this.#snapshot ??= acquireSnapshot(this, this.#options)
    const handle = spawnWorkerHandle(this.#options, this.#snapshot)
    void handle.booted.then((result) => {
      if (!result.ok) return
      if (result.value.fromSnapshot) this.#snapshotBoots += 1
      else this.#plainBoots += 1
    })
    this.#live.add(handle)
    void handle.exited.then(() => {
      this.#live.delete(handle)
      const index = this.#warm.indexOf(handle)
      if (index >= 0) this.#warm.splice(index, 1)
    })
    return handle
  }
}
