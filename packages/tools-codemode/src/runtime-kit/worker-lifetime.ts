/**
 * A spawned run worker's lifetime as the host tracks it: its boot, its exit and its last
 * `error`. Every runtime's worker handle is this plus what its engine needs (an interrupt
 * buffer, shared-memory slots). The worker is unref'd until a run claims it, so idle warm
 * workers never keep the process alive.
 */
import { awaitBoot, type BootFailure, type WorkerEvents } from './await-boot'

/** What {@link trackWorker} needs of a worker: its events, and `unref`. */
export interface TrackedWorker extends WorkerEvents {
  once(event: 'exit', listener: (code: number) => void): unknown
  unref(): void
}

/** A tracked worker's boot result, its exit and its last error. */
export interface WorkerLifetime<W, R> {
  readonly worker: W
  /** Resolves when the worker reports its boot (see `awaitBoot`), or with the failure if it errors or exits first. */
  readonly booted: Promise<R | BootFailure>
  /** Resolves with the exit code once the thread (or process) has exited. */
  readonly exited: Promise<number>
  /** Whether the worker has exited. */
  readonly hasExited: () => boolean
  /** The last `error` event the worker raised, if any. */
  readonly lastError: () => unknown
}

/**
 * Track a just-spawned worker: unref it, listen for its exit and errors, and wait for its boot
 * handshake (`readBoot` classifies each message, as in `awaitBoot`).
 */
export function trackWorker<W extends TrackedWorker, R>(
  worker: W,
  readBoot: (message: unknown) => R | BootFailure | undefined,
  describeError: (error: unknown) => string,
): WorkerLifetime<W, R> {
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
  return {
    worker,
    booted: awaitBoot(worker, readBoot, describeError),
    exited: exitedPromise,
    hasExited: () => exited,
    lastError: () => lastError,
  }
}
