/**
 * One spawned Pyodide worker and its lifetime promises. A handle is used for at most one run.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import {
  awaitBoot,
  type BootOutcome,
  describeWorkerError,
  isMessageRecord,
  ownField,
} from '@dsh/tools-codemode/runtime-kit'
import type { HostPost } from '../protocol/messages'
import { PYODIDE_WORKER_SOURCE } from '../worker/pyodide/generated/pyodide-worker-source'
import type { PyodideWorkerData } from '../worker/pyodide/worker-data'

/** Settles once the worker has booted: ready (restored from the snapshot or not), or the reason it failed. */
export type BootResult = BootOutcome<{ readonly fromSnapshot: boolean }>

/** The boot handshake's messages: `ready` (with `snapshot`) or `boot-failed`; anything else is not part of it. */
function readBootMessage(message: unknown): BootResult | undefined {
  if (!isMessageRecord(message)) return undefined
  const kind = ownField(message, 'k')
  if (kind === 'ready') return { ok: true, value: { fromSnapshot: ownField(message, 'snapshot') === true } }
  if (kind === 'boot-failed') return { ok: false, message: 'the interpreter failed to boot' }
  return undefined
}

/** A spawned worker, its interrupt buffer, its boot result and its exit. */
export interface WorkerHandle {
  readonly worker: Worker
  /** Pyodide's interrupt buffer: writing 2 (SIGINT) raises `KeyboardInterrupt` at the next bytecode. */
  readonly interrupt: Int32Array
  /** Resolves when the worker reports `ready`, or with the failure if it errors or exits first. */
  readonly booted: Promise<BootResult>
  /** Resolves with the exit code once the thread has exited. */
  readonly exited: Promise<number>
  /** Whether the thread has exited. */
  readonly hasExited: () => boolean
  /** The last `error` event the worker raised, if any. */
  readonly lastError: () => unknown
}

/** Options a worker is spawned with: its parts of the run's memory budget (`memory-budget.ts`). */
export interface SpawnOptions {
  /** V8 old generation of the worker, in MiB. */
  readonly maxOldGenerationSizeMb: number
  /** V8 young generation of the worker, in MiB. */
  readonly maxYoungGenerationSizeMb: number
  /** The interpreter's WebAssembly memory and file bytes together, in bytes. */
  readonly interpreterLimitBytes: number
}

let pyodideDirectory: string | undefined

/** Where the installed `pyodide` package lives (resolved once; the worker loads it from there, offline). */
function locatePyodide(): string {
  pyodideDirectory ??= dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))
  return pyodideDirectory
}

/** The worker options every bootstrap worker (run or snapshot maker) is started with. */
function workerOptions(
  options: SpawnOptions,
  interrupt: SharedArrayBuffer,
  makeSnapshot: boolean,
): WorkerOptions & { eval: true } {
  const directory = locatePyodide()
  return {
    eval: true,
    env: {},
    execArgv: [],
    argv: [],
    name: 'run_code',
    resourceLimits: {
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: options.maxYoungGenerationSizeMb,
    },
    workerData: {
      moduleURL: pathToFileURL(join(directory, 'pyodide.mjs')).href,
      indexURL: `${directory}/`,
      interrupt,
      interpreterLimitBytes: options.interpreterLimitBytes,
      makeSnapshot,
    } satisfies PyodideWorkerData,
    // The interpreter's own fatal-error reports go to console; they are not program output.
    stdout: true,
    stderr: true,
  }
}

/** A running snapshot maker: its bytes (`undefined` if it failed or was stopped) and its stop. */
export interface SnapshotMaker {
  readonly bytes: Promise<Uint8Array | undefined>
  /** Terminate the maker (if still running) and wait for its exit. */
  readonly stop: () => Promise<void>
  /** Whether {@link stop} was called. */
  readonly stopped: () => boolean
}

/** Spawn the worker that boots a bare interpreter and posts its memory snapshot, then exits. */
export function spawnSnapshotMaker(options: SpawnOptions): SnapshotMaker {
  const worker = new Worker(PYODIDE_WORKER_SOURCE, workerOptions(options, new SharedArrayBuffer(4), true))
  worker.unref()
  worker.stdout.resume()
  worker.stderr.resume()
  let stopped = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  worker.on('error', () => {})
  const bytes = new Promise<Uint8Array | undefined>((resolve) => {
    worker.on('message', (message: unknown) => {
      const b = (message as { k?: unknown; b?: unknown } | null)?.b
      if ((message as { k?: unknown } | null)?.k === 'snapshot' && b instanceof Uint8Array) resolve(b)
    })
    void exited.then(() => resolve(undefined))
  })
  return {
    bytes,
    stop: async () => {
      stopped = true
      await worker.terminate().catch(() => {})
      await exited
    },
    stopped: () => stopped,
  }
}

/**
 * Spawn a run worker: an empty environment, no `execArgv`, the V8 heap cap, and the Pyodide
 * location, interrupt buffer and memory cap as `workerData`. It boots once `snapshot` settles —
 * from the snapshot bytes, or plainly for `undefined`. The worker is unref'd until a run claims
 * it, so idle warm workers never keep the process alive.
 */
export function spawnWorkerHandle(
  options: SpawnOptions,
  snapshot: Promise<SharedArrayBuffer | undefined>,
): WorkerHandle {
  const interrupt = new SharedArrayBuffer(4)
  const worker = new Worker(PYODIDE_WORKER_SOURCE, workerOptions(options, interrupt, false))
  worker.unref()
  worker.stdout.resume()
  worker.stderr.resume()
  void snapshot.then((bytes) => {
    if (!exited) worker.postMessage({ k: 'boot', s: bytes ?? null } satisfies HostPost)
  })
  let exited = false
  let lastError: unknown
  const exitedPromise = new Promise<number>((resolve) => {
    worker.once('exit', (code) => {
      exited = true
      resolve(code)
    })
  })
  worker.on('error', (error) => {
    lastError = error
  })
  const booted = awaitBoot(worker, readBootMessage, (error) => describeWorkerError(error, options))
  return {
    worker,
    interrupt: new Int32Array(interrupt),
    booted,
    exited: exitedPromise,
    hasExited: () => exited,
    lastError: () => lastError,
  }
}
