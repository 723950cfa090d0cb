/**
 * Owns every worker a runtime spawns: keeps `warmWorkers` booted ahead of demand, hands each run
 * a fresh one (never reused), and on dispose terminates and awaits all of them. Every worker is
 * spawned through {@link RunSlots} (`worker-threads-pool`), so warm, running and exiting workers
 * all hold one of its `maxLiveWorkers` slots, and a run that finds no warm worker and no free
 * slot waits in its queue. What a worker is (its program, options and handle) is the runtime's:
 * it comes in as a {@link SlotSpawn} per worker.
 */
import type { Worker, WorkerOptions } from 'node:worker_threads'
import { RunLedger } from './run-ledger'
import { RunSlots, type SlotGrant } from './run-slots'

/** What the pool reads of a worker's handle: the worker (to ref and terminate) and its exit. */
export interface PooledWorker {
  readonly worker: { ref(): void; terminate(): Promise<unknown> }
  /** Settles once the worker has exited (and its slot is free); never rejects. */
  readonly exited: Promise<unknown>
  hasExited(): boolean
}

/** One spawn, as the runtime describes it. */
export interface SlotSpawn<H> {
  /** The program of the thread the library starts in the slot (`eval: true` source). */
  readonly source: string
  readonly options: WorkerOptions
  /**
   * The handle for the thread started in the slot: that thread is the run worker, or it holds
   * the slot for a run worker that lives elsewhere (a child process) — then the handle's
   * `exited` must settle only after that thread, too, has exited.
   */
  adopt(thread: Worker): H
}

/** What {@link WorkerPool.take} hands a run: a fresh worker, or why there is none. */
export type TakenWorker<H> =
  | { readonly ok: true; readonly handle: H }
  | { readonly ok: false; readonly reason: Exclude<SlotGrant, { ok: true }>['reason'] }

/** The pool's caps. */
export interface WorkerPoolLimits {
  /** Workers kept booted ahead of demand, as far as free slots allow. */
  readonly warmWorkers: number
  /** Workers alive at once: warm, running, or exiting after their run (the library's `max`). */
  readonly maxLiveWorkers: number
  /** Runs that may wait for a slot (the library's `maxWaiting`; 0 refuses a run that finds none). */
  readonly maxQueuedRuns: number
  /**
   * Start a taken warm worker's replacement when the run takes it (default), or only once the
   * run releases it: a runtime whose boots compete with its runs for the CPU waits.
   */
  readonly refillOnTake?: boolean
}

interface WarmEntry<H> {
  handle: H | undefined
  readonly ready: Promise<TakenWorker<H>>
}

/** Spawns, warms and reaps run workers within the slots' cap. */
export class WorkerPool<H extends PooledWorker> {
  readonly #spawnOne: () => SlotSpawn<H>
  readonly #warmTarget: number
  readonly #refillOnTake: boolean
  readonly #slots: RunSlots
  readonly #warm: WarmEntry<H>[] = []
  readonly #live = new Set<H>()
  readonly #ledger = new RunLedger<H>()
  readonly #spawning = new Set<Promise<TakenWorker<H>>>()
  #disposed = false

  /** `spawn` describes each new worker; nothing is spawned before {@link fill} or {@link take}. */
  constructor(spawn: () => SlotSpawn<H>, limits: WorkerPoolLimits) {
    this.#spawnOne = spawn
    this.#warmTarget = limits.warmWorkers
    this.#refillOnTake = limits.refillOnTake ?? true
    this.#slots = new RunSlots(limits.maxLiveWorkers, limits.maxQueuedRuns)
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
  exits(): H['exited'][] {
    return this.#ledger.exits()
  }

  /** Spawn workers until `warmWorkers` are waiting, as far as free slots allow (queued runs go first). */
  fill(): void {
    while (!this.#disposed && this.#warm.length < this.#warmTarget && this.#slots.free) {
      const entry: WarmEntry<H> = { handle: undefined, ready: this.#spawn() }
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
  async take(signal?: AbortSignal): Promise<TakenWorker<H>> {
    const warm = this.#warm.shift()
    // Its replacement starts booting now (from a free slot), not when the run ends: a worker
    // boots for longer than a short run takes. Deferred so the run's own start goes first.
    if (warm !== undefined && this.#refillOnTake && !this.#disposed) setImmediate(() => this.fill())
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
  release(handle: H): void {
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
    // Workers the library spawned for acquires the close refused: terminated, awaited too.
    await this.#slots.orphansExited()
  }

  #spawn(signal?: AbortSignal): Promise<TakenWorker<H>> {
    const spawning = this.#acquire(signal)
    this.#spawning.add(spawning)
    void spawning.then(() => this.#spawning.delete(spawning))
    return spawning
  }

  async #acquire(signal?: AbortSignal): Promise<TakenWorker<H>> {
    const spawn = this.#spawnOne()
    const grant = await this.#slots.acquire(spawn.source, spawn.options, signal)
    if (!grant.ok) return grant
    return { ok: true, handle: this.#track(spawn.adopt(grant.worker)) }
  }

  #track(handle: H): H {
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

  #dropWarm(entry: WarmEntry<H>): void {
    const index = this.#warm.indexOf(entry)
    if (index >= 0) this.#warm.splice(index, 1)
  }
}
