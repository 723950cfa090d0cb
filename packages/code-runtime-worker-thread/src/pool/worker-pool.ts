/**
 * Owns every worker the runtime spawns: keeps `warmWorkers` booted ahead of demand, hands each
 * run a fresh one (never reused), and on dispose terminates and awaits all of them. Every worker
 * is spawned through {@link RunSlots}, so warm, running and exiting workers all hold one of the
 * `maxConcurrentRuns` slots, and a run that finds no warm worker waits in its queue.
 */
import { RunLedger } from '@dsh/tools-codemode/runtime-kit'
import { ProcessWorker } from '../process/process-worker'
import { RunSlots, type SlotGrant } from './run-slots'
import {
  createWorkerHandle,
  runWorkerOptions,
  runWorkerSlots,
  runWorkerSource,
  type SpawnOptions,
  type WorkerHandle,
} from './worker-handle'

/**
 * With `isolation: 'process'` the run worker lives in another process, which the library cannot
 * spawn; this idle thread holds the slot instead, until that process has exited.
 */
const SLOT_HOLDER_SOURCE = "require('node:worker_threads').parentPort.on('message', () => {})"

/** What {@link WorkerPool.take} hands a run: a fresh worker, or why there is none. */
export type TakenWorker =
  | { readonly ok: true; readonly handle: WorkerHandle }
  | { readonly ok: false; readonly reason: Exclude<SlotGrant, { ok: true }>['reason'] }

interface WarmEntry {
  handle: WorkerHandle | undefined
  readonly ready: Promise<TakenWorker>
}

/** Spawns, warms and reaps run workers within the slots' cap. */
export class WorkerPool {
  readonly #options: SpawnOptions
  readonly #warmTarget: number
  readonly #slots: RunSlots
  readonly #warm: WarmEntry[] = []
  readonly #live = new Set<WorkerHandle>()
  readonly #ledger = new RunLedger<WorkerHandle>()
  readonly #spawning = new Set<Promise<TakenWorker>>()
  #disposed = false

  constructor(
    options: SpawnOptions,
    limits: {
      readonly warmWorkers: number
      readonly maxConcurrentRuns: number
      readonly maxQueuedRuns: number
    },
  ) {
    this.#options = options
    this.#warmTarget = limits.warmWorkers
    this.#slots = new RunSlots(limits.maxConcurrentRuns, limits.maxQueuedRuns)
  }

  /** Workers spawned and not yet exited. */
  get live(): number {
    // The library counts a worker from its spawn (before its handle exists, a tick later) until
    // its `error` or `exit`; this pool counts its handle until `exit`. Live in either is live.
    return Math.max(this.#slots.live, this.#live.size)
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

  /** Runs waiting for a slot. */
  get queued(): number {
    return this.#slots.queued
  }

  /** The exits of the workers counted by {@link exiting}. */
  exits(): Promise<number>[] {
    return this.#ledger.exits()
  }

  /** Spawn workers until `warmWorkers` are waiting, as far as free slots allow (queued runs go first). */
  fill(): void {
    while (!this.#disposed && this.#warm.length < this.#warmTarget && this.#slots.free) {
      const entry: WarmEntry = { handle: undefined, ready: this.#spawn() }
      void entry.ready.then((taken) => {
        if (taken.ok) entry.handle = taken.handle
        else this.#dropWarm(entry)
      })
      this.#warm.push(entry)
    }
  }

  /**
   * Take a fresh worker for one run: a warm one if any, otherwise a new spawn — at once if a
   * slot is free, else after the runs queued before it. Resolves `queue-full` at once when
   * `maxQueuedRuns` runs already wait, `aborted` if `signal` aborts while queued, `closed` once
   * disposed.
   */
  async take(signal?: AbortSignal): Promise<TakenWorker> {
    const warm = this.#warm.shift()
    // Its replacement starts booting now (from a free slot), not when the run ends: a worker
    // boots for longer than a short run takes. Deferred so the run's own start goes first.
    if (warm !== undefined && !this.#disposed) setImmediate(() => this.fill())
    const taken = await (warm?.ready ?? this.#spawn(signal))
    if (taken.ok) {
      this.#ledger.taken()
      taken.handle.worker.ref()
    }
    return taken
  }

  /**
   * Return a run's worker once its run has settled: it is exiting, and stays counted as live,
   * and as exiting, until its `exit` event frees its slot. The warm set is topped up as far as
   * free slots allow, deferred with `setImmediate` so the spawn does not delay the continuation
   * of the run that just settled (the rest follows when the worker's slot frees).
   */
  release(handle: WorkerHandle): void {
    this.#ledger.released(handle)
    if (!this.#disposed && this.#warm.length < this.#warmTarget) setImmediate(() => this.fill())
  }

  /** Refuse queued runs, terminate every worker, warm or running, and wait until each has exited. */
  async dispose(): Promise<void> {
    this.#disposed = true
    this.#slots.close()
    this.#warm.length = 0
    // A spawn granted a slot gets its worker a tick later: wait for it, so it is terminated too.
    await Promise.all(this.#spawning)
    const handles = [...this.#live]
    for (const handle of handles) {
      // Warm workers and run processes are unref'd; referenced again, they keep the host alive
      // until their exit, which this awaits (else a host with nothing else to do ends first).
      handle.worker.ref()
      void handle.worker.terminate().catch(() => {})
    }
    await Promise.all(handles.map((handle) => handle.exited))
  }

  #spawn(signal?: AbortSignal): Promise<TakenWorker> {
    const spawning = this.#acquire(signal)
    this.#spawning.add(spawning)
    void spawning.then(() => this.#spawning.delete(spawning))
    return spawning
  }

  async #acquire(signal?: AbortSignal): Promise<TakenWorker> {
    const options = this.#options
    if (options.isolation === 'process') {
      const grant = await this.#slots.acquire(
        SLOT_HOLDER_SOURCE,
        { eval: true, env: {}, execArgv: [], argv: [] },
        signal,
      )
      if (!grant.ok) return grant
      const holder = grant.worker
      holder.unref()
      const worker = new ProcessWorker(runWorkerSource(options), {
        ...options,
        workerData: runWorkerOptions(options).workerData,
      })
      const handle = createWorkerHandle(worker, options)
      // The slot is freed when the holder exits: only after the run process has.
      const exited = handle.exited.then(async (code) => {
        holder.ref()
        await holder.terminate().catch(() => {})
        return code
      })
      return { ok: true, handle: this.#track({ ...handle, exited }) }
    }
    const slots = runWorkerSlots(options)
    const grant = await this.#slots.acquire(
      runWorkerSource(options),
      runWorkerOptions(options, slots),
      signal,
    )
    if (!grant.ok) return grant
    return { ok: true, handle: this.#track(createWorkerHandle(grant.worker, options, slots)) }
  }

  #track(handle: WorkerHandle): WorkerHandle {
    this.#live.add(handle)
    if (this.#disposed) void handle.worker.terminate().catch(() => {})
    void handle.exited.then(() => {
      this.#live.delete(handle)
      const entry = this.#warm.find((warm) => warm.handle === handle)
      if (entry !== undefined) this.#dropWarm(entry)
      // A slot is free now, unless a queued run took it (the library serves its queue first, on
      // the same event): top up the warm set before anyone waiting on this exit resumes.
      this.fill()
    })
    return handle
  }

  #dropWarm(entry: WarmEntry): void {
    const index = this.#warm.indexOf(entry)
    if (index >= 0) this.#warm.splice(index, 1)
  }
}
