/**
 * Public types of @dsh/code-runtime-worker-thread. Types only; behaviour lives in the modules
 * named after what they export.
 */
import type { CodeRunHost } from '@dsh/tools-codemode'

/** A JSON value as the Code Mode host hands it over (`host.call` resolves to one). */
export type JsonValue = Awaited<ReturnType<CodeRunHost['call']>>

/**
 * The engine programs run in. `'quickjs'` (the default) is QuickJS compiled to WebAssembly inside
 * the worker: an isolation boundary by construction. `'node-vm'` is a `node:vm` context in the
 * worker: faster for compute-heavy programs, but containment only, not a security boundary —
 * use it for trusted programs.
 */
export type CodeEngine = 'quickjs' | 'node-vm'

/**
 * Configuration of the worker-thread runtime, as a user writes it. Every field is optional;
 * {@link resolveWorkerThreadRuntimeConfig} validates it and fills in the defaults.
 */
export interface WorkerThreadRuntimeConfig {
  /** The engine programs run in (default `'quickjs'`); see {@link CodeEngine}. */
  readonly engine?: CodeEngine
  /**
   * Budget of measured busy time per run, in milliseconds (default 30 000). Only time the
   * worker's event loop spends running — the program, its microtasks, message handling — counts;
   * time spent waiting for a tool call does not. Exceeding it ends the run as `timeout`.
   */
  readonly computeMs?: number
  /** Wall-clock budget per run, in milliseconds (default 300 000, at most 2 147 483 647). Exceeding it ends the run as `timeout`. */
  readonly maxWallMs?: number
  /**
   * Cap on the combined UTF-8 size of the program's log lines plus its completion payload
   * (the JSON text of the result, or the failure message), in bytes (default 64 MiB).
   * Exceeding it ends the run as `output-limit`.
   */
  readonly maxOutputBytes?: number
  /**
   * Cap on the number of log lines a run may print (default 10 000). Each line is a separate
   * entry every consumer of the logs handles, so a flood of tiny lines is bounded by count as
   * well as by `maxOutputBytes`. Exceeding it ends the run as `output-limit`.
   */
  readonly maxLogLines?: number
  /**
   * Most JSON values in one value leaving the program — its result, or one tool call's
   * arguments (default 50,000; every scalar, array and object counts one). Measured by one scan
   * of the value's JSON text in the worker before it is posted, and again on the host before the
   * host parses it. A result past it ends the run as `output-limit`; a call past it is refused
   * inside the program with a `ToolCallError`. What a value costs the host (parse, snapshot,
   * validation, rendering) grows with this count, not with its bytes: a 15 MB result of a
   * million keys stalled the host for seconds, while 50,000 keys cost about 0.2–0.4 s.
   */
  readonly maxValueNodes?: number
  /** Deepest nesting of arrays and objects in such a value (default 100, under tools-core's `valueLimits.maxDepth` of 128), measured by the same scan. */
  readonly maxValueDepth?: number
  /**
   * Memory cap of each run, in MiB (default 256, at least 16). With `quickjs` it is the engine's
   * allocation limit — every object, string, ArrayBuffer and typed array — and exhausting it
   * throws `InternalError: out of memory` inside the program (uncaught: `exception`); the worker's
   * V8 heap is capped at the same size. With `node-vm` it is the worker's V8 old-generation heap
   * cap, and exhausting it ends the run as `worker-exit`.
   */
  readonly maxOldGenerationSizeMb?: number
  /**
   * How many run workers may be alive at once (default 8): booted ahead of demand (`warmWorkers`),
   * running a program, or exiting after their run settled. Further runs wait, in order, for a
   * slot (up to `maxQueuedRuns` of them).
   */
  readonly maxConcurrentRuns?: number
  /**
   * How many runs may wait for a worker slot when `maxConcurrentRuns` workers are alive
   * (default 1024; 0 refuses any run that finds no free slot). A run beyond the queue fails at
   * once as `abort` with a "run queue is full" message; a queued run can be aborted through its
   * signal and leaves the queue at once.
   */
  readonly maxQueuedRuns?: number
  /**
   * How many booted, unused workers to keep waiting for a program (default 2; 0 spawns on
   * demand). Each holds one of the `maxConcurrentRuns` slots; the set is refilled only from free
   * slots, after queued runs.
   */
  readonly warmWorkers?: number
  /**
   * Where each run's worker lives (default `'thread'`). `'process'` hosts it in a fresh Node
   * process per run, so a fatal V8 error ends that run as `worker-exit` instead of the host, the
   * process's resident memory (ArrayBuffers included) is capped at `maxOldGenerationSizeMb` +
   * 256 MiB, and a timeout kills even a builtin that cannot be interrupted. Costs a process boot
   * per run (absorbed by `warmWorkers`) and about 40 MB RSS per live process.
   */
  readonly isolation?: 'thread' | 'process'
  /**
   * How long the host's main thread may poll a run's call slot for the program's next call
   * after answering one, in microseconds (default 30, 0 – 1 000; 0 never polls). A sequential
   * program's next call is then taken without an event-loop wake. Bounded per reply, backed off
   * when polls catch nothing, capped at a quarter of the run's wall time, and off while more than
   * one run is live. Only `quickjs` threads (not `isolation: 'process'`) have a call slot.
   */
  readonly hostSpinMicros?: number
  /**
   * How long a `quickjs` worker polls its reply slot for the host's answer before it blocks, in
   * microseconds (default 50, 0 – 1 000; 0 never polls). The poll is the worker's busy time and
   * counts toward `computeMs` like its blocking does.
   */
  readonly workerSpinMicros?: number
}

/** A validated {@link WorkerThreadRuntimeConfig} with every default applied. */
export interface ResolvedWorkerThreadRuntimeConfig {
  readonly engine: CodeEngine
  readonly computeMs: number
  readonly maxWallMs: number
  readonly maxOutputBytes: number
  readonly maxLogLines: number
  readonly maxValueNodes: number
  readonly maxValueDepth: number
  readonly maxOldGenerationSizeMb: number
  readonly maxConcurrentRuns: number
  readonly maxQueuedRuns: number
  readonly warmWorkers: number
  readonly isolation: 'thread' | 'process'
  readonly hostSpinMicros: number
  readonly workerSpinMicros: number
}

/** A snapshot of the runtime's workers, for monitoring and tests. */
export interface WorkerRuntimeStats {
  /** Workers spawned and not yet exited (warm, booting, running or exiting). */
  readonly liveWorkers: number
  /** Workers currently running a program. */
  readonly runningWorkers: number
  /** Workers whose run has settled and whose thread is still exiting (they hold a concurrency slot). */
  readonly exitingWorkers: number
  /** Booted workers waiting for a program. */
  readonly warmWorkers: number
  /** Runs waiting for a concurrency slot. */
  readonly queuedRuns: number
  /** Host-side polls of a call slot after a reply (see `hostSpinMicros`), since the runtime started. */
  readonly hostSpins: number
  /** Of {@link hostSpins}, those that caught the program's next call. */
  readonly hostSpinHits: number
  /** Microseconds the host's main thread spent in those polls. */
  readonly hostSpinMicros: number
}
