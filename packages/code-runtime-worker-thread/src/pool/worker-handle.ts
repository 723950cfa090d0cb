/**
 * One spawned worker and its lifetime promises. A handle is used for at most one run.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { type LoopUtilization, ProcessWorker } from '../process/process-worker'
import { BOOTSTRAP_SOURCE } from '../worker/bootstrap-source'

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
}

/** Options a worker is spawned with. */
export interface SpawnOptions {
  readonly maxOldGenerationSizeMb: number
  /** `'process'`: the worker lives in a fresh Node process of its own (see `ProcessWorker`). */
  readonly isolation?: 'thread' | 'process'
  /** The worker's program; the node:vm bootstrap unless given (tests drive hostile workers). */
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

/** The options every run worker is spawned with: an empty environment, no `execArgv`, the heap cap. */
export function runWorkerOptions(options: SpawnOptions): WorkerOptions & { eval: true } {
  return {
    eval: true,
    env: {},
    execArgv: [],
    argv: [],
    name: 'run_code',
    resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb },
  }
}

/**
 * Spawn a run worker (see {@link runWorkerOptions}). The worker is unref'd until a run claims
 * it, so idle warm workers never keep the process alive.
 */
export function spawnWorkerHandle(options: SpawnOptions): WorkerHandle {
  const source = options.source ?? BOOTSTRAP_SOURCE
  const worker: RunWorker =
    options.isolation === 'process'
      ? new ProcessWorker(source, options)
      : new Worker(source, runWorkerOptions(options))
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
  }
}
