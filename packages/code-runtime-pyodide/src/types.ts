/**
 * Public types of @dsh/code-runtime-pyodide. Types only; behaviour lives in the modules named
 * after what they export.
 */
import type { CodeRunHost } from '@dsh/tools-codemode'

/** A JSON value as the Code Mode host hands it over (`host.call` resolves to one). */
export type JsonValue = Awaited<ReturnType<CodeRunHost['call']>>

/**
 * Configuration of the Pyodide runtime, as a user writes it. Every field is optional;
 * {@link resolvePyodideRuntimeConfig} validates it and fills in the defaults.
 */
export interface PyodideRuntimeConfig {
  /**
   * Budget of measured busy time per run, in milliseconds (default 30 000). Time spent waiting
   * for a tool call does not count. Exceeding it interrupts the interpreter (Pyodide's interrupt
   * buffer) and ends the run as `timeout`.
   */
  readonly computeMs?: number
  /** Wall-clock budget per run, in milliseconds (default 300 000, at most 2 147 483 647). Exceeding it ends the run as `timeout`. */
  readonly maxWallMs?: number
  /**
   * Cap on the combined UTF-8 size of the program's log lines (each costs at least one byte)
   * plus its completion payload, in bytes (default 64 MiB), at most an eighth of `maxMemoryMb`.
   * Exceeding it ends the run as `output-limit`.
   */
  readonly maxOutputBytes?: number
  /**
   * Most JSON values in one value leaving the program — its result, or one tool call's
   * arguments (default 20,000; every scalar, list and dict counts one, each dict entry's value
   * included). Measured by one scan of the value's JSON text in the worker before it is posted,
   * and again on the host before the host parses it. A result past it ends the run as
   * `output-limit`; a call past it raises `ToolCallError` in the program. What a value costs the
   * host grows with this count, not with its bytes (see the README's Limits).
   */
  readonly maxValueNodes?: number
  /** Deepest nesting of lists and dicts in such a value (default 100, under tools-core's `valueLimits.maxDepth` of 128; at most 1000), measured by the same scan. */
  readonly maxValueDepth?: number
  /**
   * Cap on the number of log lines a run may print (default 10 000; the same key, default and
   * meaning as in `@dsh/code-runtime-worker-thread`). The line that would be line
   * `maxLogLines + 1` ends the run as `output-limit` (`output exceeded maxLogLines (N lines)`),
   * with the first `maxLogLines` lines in its logs. Enforced in the worker, which stops the
   * program at that line, and again on the host.
   */
  readonly maxLogLines?: number
  /**
   * The memory budget of one run, in MiB (default 512, 128 – 4095): the worker's JavaScript heap,
   * the interpreter's WebAssembly memory, its in-memory files and its output together (the split
   * is in the package README). Python sees an allocation past its part as `MemoryError`, a file
   * write as `OSError` (`ENOSPC`).
   */
  readonly maxMemoryMb?: number
  /**
   * V8 old-generation heap cap of each worker (its JavaScript side), in MiB (default 256, at least
   * 64), further bounded by the heap's part of `maxMemoryMb`. Exhausting it ends the run as `worker-exit`.
   */
  readonly maxOldGenerationSizeMb?: number
  /** How many run workers may be alive at once (default 4): running, or exiting after their run settled. Further runs wait, in order. */
  readonly maxConcurrentRuns?: number
  /** How many booted interpreters to keep waiting for a program (default 1; 0 boots on demand). */
  readonly warmWorkers?: number
}

/** A validated {@link PyodideRuntimeConfig} with every default applied. */
export interface ResolvedPyodideRuntimeConfig {
  readonly computeMs: number
  readonly maxWallMs: number
  readonly maxOutputBytes: number
  readonly maxValueNodes: number
  readonly maxValueDepth: number
  readonly maxLogLines: number
  readonly maxMemoryMb: number
  readonly maxOldGenerationSizeMb: number
  readonly maxConcurrentRuns: number
  readonly warmWorkers: number
}

/** A snapshot of the runtime's workers, for monitoring and tests. */
export interface PyodideRuntimeStats {
  /** Workers spawned and not yet exited (warm, booting, running or exiting). */
  readonly liveWorkers: number
  /** Workers currently running a program. */
  readonly runningWorkers: number
  /** Workers whose run has settled and whose thread is still exiting (they hold a concurrency slot). */
  readonly exitingWorkers: number
  /** Booted (or booting) workers waiting for a program. */
  readonly warmWorkers: number
  /** Runs waiting for a concurrency slot. */
  readonly queuedRuns: number
  /** Interpreters booted so far by restoring the process's memory snapshot. */
  readonly snapshotBoots: number
  /** Interpreters booted so far without a snapshot (only when the snapshot could not be made). */
  readonly plainBoots: number
  /**
   * Interpreters booted so far from the compiled WebAssembly module the snapshot maker posted
   * with the snapshot (its machine code shared between workers) instead of compiling their own:
   * every snapshot boot, unless the module could not be passed on.
   */
  readonly sharedModuleBoots: number
}
