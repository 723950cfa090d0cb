/**
 * One spawned worker and its lifetime promises. A handle is used for at most one run.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads'
import type { LoopUtilization } from '@dsh/tools-codemode/runtime-kit'
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
export type BootResult = { readonly ok: true } | { readonly ok: false; readonly message: string }

/** A spawned worker, its boot result and its exit. */
export interface WorkerHandle {
  readonly worker: RunWorker
  /** Resolves when the worker reports `ready`, or with the failure if it errors or exits first. */
  readonly booted: Promise<BootResult>
  /** Resolves with the exit code once the thread has exited. */
  readonly exited: Promise<number>
  /** Whether the thread has exited. */
  readonly hasExited: () => boolean
  /** The last `error` event the worker raised, if any. */
  readonly lastError: () => unknown
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

/** Describe a worker `error` event for a failure message. */
export function describeWorkerError(error: unknown, options: SpawnOptions): string {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the worker ran out of memory (maxOldGenerationSizeMb: ${options.maxOldGenerationSizeMb})`
  }
  const message = (error as { message?: unknown } | null)?.message
  return `the worker failed: ${typeof message === 'string' ? message : String(error)}`
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

/**
 * Track a just-spawned run worker: its boot, its exit and its last error. The worker is unref'd
 * until a run claims it, so idle warm workers never keep the process alive.
 */
export function createWorkerHandle(
  worker: RunWorker,
  options: SpawnOptions,
  slots?: WorkerSlots,
): WorkerHandle {
  worker.unref()
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
  const booted = new Promise<BootResult>((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { k?: unknown }).k === 'ready') {
        cleanup()
        resolve({ ok: true })
      }
    }
    const onError = (error: unknown) => {
      cleanup()
      resolve({ ok: false, message: describeWorkerError(error, options) })
    }
    const onExit = (code: number) => {
      cleanup()
      resolve({ ok: false, message: `the worker exited while booting (code ${code})` })
    }
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
    }
    worker.on('message', onMessage)
    worker.once('error', onError)
    worker.once('exit', onExit)
  })
  return {
    worker,
    booted,
    exited: exitedPromise,
    hasExited: () => exited,
    lastError: () => lastError,
    ...slots,
  }
}
