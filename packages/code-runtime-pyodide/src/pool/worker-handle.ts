/**
 * One spawned Pyodide worker and its lifetime promises (the runtime kit's `trackWorker`), plus
 * its interrupt buffer. A handle is used for at most one run.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import {
  type BootOutcome,
  describeWorkerError,
  isMessageRecord,
  ownField,
  type SlotSpawn,
  trackWorker,
  type WorkerLifetime,
} from '@dsh/tools-codemode/runtime-kit'
import type { HostPost } from '../protocol/messages'
import { PYODIDE_WORKER_SOURCE } from '../worker/pyodide/generated/pyodide-worker-source'
import type { PyodideWorkerData } from '../worker/pyodide/worker-data'

/**
 * Settles once the worker has booted: ready (restored from the snapshot or not, instantiated from
 * the shared compiled module or not), or the reason it failed.
 */
export type BootResult = BootOutcome<{ readonly fromSnapshot: boolean; readonly sharedModule: boolean }>

/** The boot handshake's messages: `ready` (with `snapshot`) or `boot-failed`; anything else is not part of it. */
function readBootMessage(message: unknown): BootResult | undefined {
  if (!isMessageRecord(message)) return undefined
  const kind = ownField(message, 'k')
  if (kind === 'ready')
    return {
      ok: true,
      value: {
        fromSnapshot: ownField(message, 'snapshot') === true,
        sharedModule: ownField(message, 'module') === true,
      },
    }
  if (kind === 'boot-failed') return { ok: false, message: 'the interpreter failed to boot' }
  return undefined
}

/** A spawned worker, its interrupt buffer, its boot result and its exit. */
export interface WorkerHandle extends WorkerLifetime<Worker, BootResult> {
  /** Pyodide's interrupt buffer: writing 2 (SIGINT) raises `KeyboardInterrupt` at the next bytecode. */
  readonly interrupt: Int32Array
  /** Resolves when the worker reports `ready`, or with the failure if it errors or exits first. */
  readonly booted: Promise<BootResult>
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

/**
 * What a snapshot maker posts: the booted interpreter's memory, and the `WebAssembly.Module` it
 * compiled (`null` if it has none to give; run workers then compile the bytes themselves).
 */
export interface MadeSnapshot {
  readonly bytes: Uint8Array
  readonly module: object | null
}

/** The snapshot of the process a run worker boots from: shared bytes and the compiled module. */
export interface SharedSnapshot {
  readonly bytes: SharedArrayBuffer
  readonly module: object | null
}

/** `WebAssembly.Module`, which the DOM-less lib does not declare as a value. */
const WasmModule = (
  globalThis as unknown as { WebAssembly: { Module: abstract new (...args: never[]) => object } }
).WebAssembly.Module

/** A running snapshot maker: its snapshot (`undefined` if it failed or was stopped) and its stop. */
export interface SnapshotMaker {
  readonly bytes: Promise<MadeSnapshot | undefined>
  /** Terminate the maker (if still running) and wait for its exit. */
  readonly stop: () => Promise<void>
  /** Whether {@link stop} was called. */
  readonly stopped: () => boolean
}

/** Spawn the worker that boots a bare interpreter and posts its memory snapshot (and compiled module), then exits. */
export function spawnSnapshotMaker(options: SpawnOptions): SnapshotMaker {
  const worker = new Worker(PYODIDE_WORKER_SOURCE, workerOptions(options, new SharedArrayBuffer(4), true))
  worker.unref()
  worker.stdout.resume()
  worker.stderr.resume()
  let stopped = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  worker.on('error', () => {})
  const bytes = new Promise<MadeSnapshot | undefined>((resolve) => {
    worker.on('message', (message: unknown) => {
      const { k, b, m } = (message ?? {}) as { k?: unknown; b?: unknown; m?: unknown }
      if (k === 'snapshot' && b instanceof Uint8Array)
        resolve({ bytes: b, module: m instanceof WasmModule ? m : null })
    })
    void exited.then(() => resolve(undefined))
  })
  return {
    bytes,
    stop: async () => {
      stopped = true
      // Unref'd while it boots; referenced again, it keeps the host alive until the exit this
      // awaits (else a host with nothing else to do ends before its runtime's dispose settles).
      worker.ref()
      await worker.terminate().catch(() => {})
      await exited
    },
    stopped: () => stopped,
  }
}

/**
 * One run worker, as the pool spawns it in a slot: an empty environment, no `execArgv`, the V8
 * heap cap, and the Pyodide location, interrupt buffer and memory cap as `workerData`. It boots
 * once `snapshot` settles — from the snapshot bytes and its compiled module, or plainly for
 * `undefined`. The worker is unref'd until a run claims it, so idle warm workers never keep the
 * process alive.
 */
export function runWorkerSpawn(
  options: SpawnOptions,
  snapshot: Promise<SharedSnapshot | undefined>,
): SlotSpawn<WorkerHandle> {
  const interrupt = new SharedArrayBuffer(4)
  return {
    source: PYODIDE_WORKER_SOURCE,
    options: workerOptions(options, interrupt, false),
    adopt: (worker) => {
      worker.stdout.resume()
      worker.stderr.resume()
      const lifetime = trackWorker(worker, readBootMessage, (error) => describeWorkerError(error, options))
      void snapshot.then((made) => {
        if (!lifetime.hasExited())
          worker.postMessage({
            k: 'boot',
            s: made?.bytes ?? null,
            m: made?.module ?? null,
          } satisfies HostPost)
      })
      return { ...lifetime, interrupt: new Int32Array(interrupt) }
    },
  }
}
