/**
 * One spawned worker and its lifetime promises (the runtime kit's `trackWorker`), plus the
 * QuickJS worker's shared-memory slots. A handle is used for at most one run.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads'
import {
  type BootFailure,
  describeWorkerError,
  isMessageRecord,
  type LoopUtilization,
  ownField,
  type SlotSpawn,
  trackWorker,
  type WorkerLifetime,
} from '@dsh/tools-codemode/runtime-kit'
import { ProcessWorker } from '../process/process-worker'
import { createCallSlot } from '../protocol/call-slot'
import { createReplySlot } from '../protocol/reply-slot'
import type { CodeEngine } from '../types'
import { NODE_VM_WORKER_SOURCE } from '../worker/node-vm/generated/node-vm-worker-source'
import { QUICKJS_WORKER_SOURCE } from '../worker/quickjs/generated/quickjs-worker-source'
import { quickJSWorkerData } from '../worker/quickjs/quickjs-worker-data'

/** What the runtime uses of a run worker: a `Worker`, or a {@link ProcessWorker} standing in for one. */
export interface RunWorker {
  postMessage(message: unknown): void
  on(event: 'message' | 'messageerror' | 'error' | 'exit', listener: (value: any) => void): unknown
  off(event: 'message' | 'messageerror' | 'error' | 'exit', listener: (value: any) => void): unknown
  once(event: 'message' | 'messageerror' | 'error' | 'exit', listener: (value: any) => void): unknown
  terminate(): Promise<number>
  ref(): void
  unref(): void
  readonly performance: { eventLoopUtilization(base?: LoopUtilization): LoopUtilization }
}

/** Settles once the worker has booted: `true` when ready, otherwise the reason it failed. */
export type BootResult = { readonly ok: true } | BootFailure

/** A spawned worker, its boot result and its exit. */
export interface WorkerHandle extends WorkerLifetime<RunWorker, { readonly ok: true }> {
  /** The QuickJS worker's reply slot (`protocol/reply-slot.ts`), when it shares memory with the host. */
  readonly replySlot?: SharedArrayBuffer
  /** The QuickJS worker's call slot (`protocol/call-slot.ts`), present exactly when `replySlot` is. */
  readonly callSlot?: SharedArrayBuffer
}

/** Options a worker is spawned with. */
export interface SpawnOptions {
  readonly maxOldGenerationSizeMb: number
  /** The engine the worker runs programs in (default `'node-vm'` here; the runtime always passes it). */
  readonly engine?: CodeEngine
  /** Busy-time budget the QuickJS engine's interrupt handler enforces (the host watchdog is the backstop). */
  readonly computeMs?: number
  /** `'process'`: the worker lives in a fresh Node process of its own (see `ProcessWorker`). */
  readonly isolation?: 'thread' | 'process'
  /** How long a QuickJS worker polls its reply slot before blocking, in µs (default 0: never). */
  readonly workerSpinMicros?: number
  /** The worker's program; the engine's worker source unless given (tests drive hostile workers). */
  readonly source?: string
}

/**
 * The options every run worker is spawned with: an empty environment, no `execArgv`, the heap
 * cap; a QuickJS worker also gets the engine's location, compiled module and limits.
 */
export function runWorkerOptions(options: SpawnOptions, slots?: WorkerSlots): WorkerOptions & { eval: true } {
  return {
    eval: true,
    ...(options.engine === 'quickjs'
      ? {
          workerData: {
            ...quickJSWorkerData({ ...options, computeMs: options.computeMs ?? 30_000 }),
            ...slots,
          },
        }
      : {}),
    env: {},
    execArgv: [],
    argv: [],
    name: 'run_code',
    resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb },
  }
}

/** The program a run worker of `options` starts with. */
export function runWorkerSource(options: SpawnOptions): string {
  return options.source ?? (options.engine === 'quickjs' ? QUICKJS_WORKER_SOURCE : NODE_VM_WORKER_SOURCE)
}

/** The shared-memory slots a run worker of `options` exchanges calls and replies through. */
export interface WorkerSlots {
  readonly replySlot: SharedArrayBuffer
  readonly callSlot: SharedArrayBuffer
}

/** The slots a run worker of `options` shares with the host, if any. */
export function runWorkerSlots(options: SpawnOptions): WorkerSlots | undefined {
  // Only a QuickJS thread of this process can share them (and only its worker reads them).
  return options.engine === 'quickjs' && options.isolation !== 'process' && options.source === undefined
    ? { replySlot: createReplySlot(options.workerSpinMicros), callSlot: createCallSlot() }
    : undefined
}

/**
 * Spawn a run worker (see {@link runWorkerOptions}) outside the runtime's slots (tests drive
 * single workers this way; the runtime spawns through `RunSlots`).
 */
export function spawnWorkerHandle(options: SpawnOptions): WorkerHandle {
  const slots = runWorkerSlots(options)
  const source = runWorkerSource(options)
  const worker: RunWorker =
    options.isolation === 'process'
      ? new ProcessWorker(source, { ...options, workerData: runWorkerOptions(options).workerData })
      : new Worker(source, runWorkerOptions(options, slots))
  return createWorkerHandle(worker, options, slots)
}

const READY: { readonly ok: true } = Object.freeze({ ok: true })

/** The boot handshake's one message, `{ k: 'ready' }`; anything else is not part of it. */
function readBootMessage(message: unknown): { readonly ok: true } | undefined {
  return isMessageRecord(message) && ownField(message, 'k') === 'ready' ? READY : undefined
}

/**
 * Track a just-spawned run worker: its boot, its exit and its last error. The worker is unref'd
 * until a run claims it, so idle warm workers never keep the process alive.
 */
export function createWorkerHandle(
  worker: RunWorker,
  options: SpawnOptions,
  slots?: WorkerSlots,
): WorkerHandle {
  return {
    ...trackWorker(worker, readBootMessage, (error) => describeWorkerError(error, options)),
    ...slots,
  }
}

/**
 * With `isolation: 'process'` the run worker lives in another process, which the pool's
 * library cannot spawn; this idle thread holds the slot instead, until that process has exited.
 */
const SLOT_HOLDER_SOURCE = "require('node:worker_threads').parentPort.on('message', () => {})"

/** One run worker of `options`, as the runtime kit's pool spawns it in a slot. */
export function runWorkerSpawn(options: SpawnOptions): SlotSpawn<WorkerHandle> {
  if (options.isolation === 'process') {
    return {
      source: SLOT_HOLDER_SOURCE,
      options: { eval: true, env: {}, execArgv: [], argv: [] },
      adopt: (holder) => {
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
        return { ...handle, exited }
      },
    }
  }
  const slots = runWorkerSlots(options)
  return {
    source: runWorkerSource(options),
    options: runWorkerOptions(options, slots),
    adopt: (worker) => createWorkerHandle(worker, options, slots),
  }
}
