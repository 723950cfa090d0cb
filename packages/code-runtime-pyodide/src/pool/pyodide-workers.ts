/**
 * The runtime kit's worker pool, filled with Pyodide workers: each boots from the process's
 * memory snapshot (requested by the first spawn, so a runtime that never boots makes none), and
 * the pool counts how each booted. Warm workers are kept outside `maxConcurrentRuns` (runs are
 * admitted by the runtime's semaphore, held until their worker has exited), so the pool's own
 * cap is the most that can be alive at once, `maxConcurrentRuns + warmWorkers`: it never makes
 * a run wait. A taken warm worker is replaced once its run is released, not while it runs: a
 * Pyodide boot takes seconds of CPU that the run would compete with.
 */
import { WorkerPool } from '@dsh/tools-codemode/runtime-kit'
import { acquireSnapshot, releaseSnapshot } from './snapshot-store'
import { runWorkerSpawn, type SharedSnapshot, type SpawnOptions, type WorkerHandle } from './worker-handle'

/** A Pyodide worker pool and its boot counts. */
export class PyodideWorkers {
  /** The pool runs take their workers from. */
  readonly pool: WorkerPool<WorkerHandle>
  readonly #options: SpawnOptions
  #snapshot: Promise<SharedSnapshot | undefined> | undefined
  #snapshotBoots = 0
  #plainBoots = 0
  #sharedModuleBoots = 0

  constructor(
    options: SpawnOptions,
    limits: { readonly warmWorkers: number; readonly maxConcurrentRuns: number },
  ) {
    this.#options = options
    this.pool = new WorkerPool(() => this.#spawn(), {
      warmWorkers: limits.warmWorkers,
      maxLiveWorkers: limits.maxConcurrentRuns + limits.warmWorkers,
      maxQueuedRuns: Number.MAX_SAFE_INTEGER,
      refillOnTake: false,
    })
  }

  /**
   * Workers booted from the process's memory snapshot, and booted plainly; `sharedModule` counts
   * the boots that instantiated the snapshot maker's compiled module instead of compiling their own.
   */
  get boots(): { readonly snapshot: number; readonly plain: number; readonly sharedModule: number } {
    return { snapshot: this.#snapshotBoots, plain: this.#plainBoots, sharedModule: this.#sharedModuleBoots }
  }

  /** Stop waiting for the snapshot (a maker still booting is stopped by its last holder) and await that. */
  releaseSnapshot(): Promise<void> {
    return releaseSnapshot(this)
  }

  #spawn() {
    this.#snapshot ??= acquireSnapshot(this, this.#options)
    const spawn = runWorkerSpawn(this.#options, this.#snapshot)
    return {
      ...spawn,
      adopt: (worker: Parameters<typeof spawn.adopt>[0]): WorkerHandle => {
        const handle = spawn.adopt(worker)
        void handle.booted.then((result) => {
          if (!result.ok) return
          if (result.value.fromSnapshot) this.#snapshotBoots += 1
          else this.#plainBoots += 1
          if (result.value.sharedModule) this.#sharedModuleBoots += 1
        })
        return handle
      },
    }
  }
}
