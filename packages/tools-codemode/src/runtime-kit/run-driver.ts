/**
 * The host side of one run on one fresh worker, minus the engine: the listeners on the worker
 * and on the two abort signals, the run message, the budget watchdog, log accounting, and the
 * one place a run settles. A runtime's session parses its own messages and dispatches its own
 * calls, and calls back into the driver to log, complete or fail.
 */
import type { CodeRunFailureKind, CodeRunHost, CodeRunOutcome } from '../code-runtime'
import { type BusyTimeSource, type RunBudget, startBudgetWatchdog } from './budget-watchdog'
import type { DoneStatus } from './done-status'
import type { ValueLimits } from './json-text-shape'
import { type LineCost, type OutputLimits, OutputMeter } from './output-meter'
import {
  completionOutcome,
  describeWorkerError,
  failedOutcome,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
} from './run-outcome'

/** The worker events a run listens to. */
export type RunWorkerEvent = 'message' | 'messageerror' | 'error' | 'exit'

/** The part of a `worker_threads` `Worker` a run drives. */
export interface RunWorker extends BusyTimeSource {
  on(event: RunWorkerEvent, listener: (value: any) => void): unknown
  off(event: RunWorkerEvent, listener: (value: any) => void): unknown
  postMessage(message: unknown): void
  terminate(): Promise<unknown>
}

/** A booted worker as the runtime's pool hands it to a run. */
export interface RunHandle {
  readonly worker: RunWorker
  /** Settles when the worker's thread has exited; never rejects. */
  readonly exited: Promise<unknown>
  hasExited(): boolean
  /** The last `error` the worker raised before this run began listening, if any. */
  lastError(): unknown
}

/**
 * The limits a run enforces: its time budgets, its output budget, the shape of its result, and
 * its heap cap (for messages).
 */
export type RunLimits = RunBudget & OutputLimits & ValueLimits & { readonly maxOldGenerationSizeMb: number }

/** What a {@link RunDriver} needs; everything engine-specific comes in as a callback. */
export interface RunDriverOptions {
  readonly handle: RunHandle
  readonly host: CodeRunHost
  /** Aborted when the runtime is disposed: the run ends as `abort`. */
  readonly shutdown: AbortSignal
  readonly limits: RunLimits
  /** How each log line is priced against `maxOutputBytes`. */
  readonly lineCost: LineCost
  /** Each message from the worker while the run is live (never after it settled). */
  readonly onMessage: (raw: unknown) => void
  /** A message the host could not deserialize; listened to only when given. */
  readonly onMessageError?: (() => void) | undefined
  /** Runs when a budget is exceeded, just before the run fails as `timeout` (e.g. interrupt the engine). */
  readonly onTimeout?: (() => void) | undefined
  /** Starts once the run message is posted; returns what to stop when the run settles. */
  readonly afterPost?: (() => () => void) | undefined
}

/** One run's wiring: create it with the engine's callbacks, then {@link RunDriver.start} it once. */
export class RunDriver {
  /** The lines the program logged so far (within the output budget). */
  readonly logs: string[] = []
  /** The run's output account; the completion payload is charged to it too. */
  readonly meter: OutputMeter
  readonly #options: RunDriverOptions
  readonly #outcome: Promise<CodeRunOutcome>
  #resolve: (outcome: CodeRunOutcome) => void = () => {}
  #settled = false
  #lastError: unknown
  #stopBudget = (): void => {}
  #stopAfterPost = (): void => {}

  constructor(options: RunDriverOptions) {
    this.#options = options
    this.meter = new OutputMeter(options.limits, options.lineCost)
    this.#outcome = new Promise<CodeRunOutcome>((resolve) => {
      this.#resolve = resolve
    })
  }

  /** Whether the outcome is decided; nothing may be sent to the worker after that. */
  get settled(): boolean {
    return this.#settled
  }

  /**
   * Subscribe, post `runMessage` and start the budgets; returns the outcome, which never
   * rejects. A run whose signal is already aborted, or whose worker already exited, settles
   * without posting anything.
   */
  start(runMessage: unknown): Promise<CodeRunOutcome> {
    const { handle, host, shutdown, limits, onMessageError, onTimeout, afterPost } = this.#options
    const { worker } = handle
    if (host.signal.aborted || shutdown.aborted) {
      this.fail('abort', host.signal.aborted ? RUN_ABORTED_MESSAGE : RUNTIME_DISPOSED_MESSAGE)
      return this.#outcome
    }
    if (handle.hasExited()) {
      this.#onExit(-1)
      return this.#outcome
    }
    host.signal.addEventListener('abort', this.#onAbort, { once: true })
    shutdown.addEventListener('abort', this.#onShutdown, { once: true })
    worker.on('message', this.#onMessage)
    if (onMessageError !== undefined) worker.on('messageerror', onMessageError)
    worker.on('error', this.#onError)
    worker.on('exit', this.#onExit)
    worker.postMessage(runMessage)
    if (afterPost !== undefined) this.#stopAfterPost = afterPost()
    this.#stopBudget = startBudgetWatchdog(worker, limits, (message) => {
      onTimeout?.()
      this.fail('timeout', message)
    })
    return this.#outcome
  }

  /**
   * End the run once; later calls do nothing. `exiting` is true only on the worker's completion
   * message, which the worker posts in the same synchronous turn as its `process.exit()`, so no
   * program code can run after it and the outcome need not wait for the thread's teardown. Every
   * other ending (a kill) resolves only after the worker's `exit`. Either way the host
   * terminates the worker too.
   */
  settle(result: CodeRunOutcome, exiting = false): void {
    if (this.#settled) return
    this.#settled = true
    this.#stopBudget()
    this.#stopAfterPost()
    const { handle, host, shutdown, onMessageError } = this.#options
    const { worker } = handle
    host.signal.removeEventListener('abort', this.#onAbort)
    shutdown.removeEventListener('abort', this.#onShutdown)
    worker.off('message', this.#onMessage)
    if (onMessageError !== undefined) worker.off('messageerror', onMessageError)
    worker.off('error', this.#onError)
    worker.off('exit', this.#onExit)
    if (!handle.hasExited()) void worker.terminate().catch(() => {})
    if (exiting) this.#resolve(result)
    else void handle.exited.then(() => this.#resolve(result))
  }

  /** Settle as a failure of `kind`, with the lines logged so far. */
  fail(kind: CodeRunFailureKind, message: string, exiting = false): void {
    this.settle(failedOutcome(kind, message, this.logs), exiting)
  }

  /**
   * Account one line and forward it to `host.onLog`; false when it is past the output budget
   * (the run has then failed as `output-limit`).
   */
  log(line: string): boolean {
    const over = this.meter.admitLine(line)
    if (over !== undefined) {
      this.fail('output-limit', over)
      return false
    }
    this.logs.push(line)
    try {
      this.#options.host.onLog?.(line)
    } catch {
      // A failing log sink must not break the run.
    }
    return true
  }

  /** Settle on the worker's checked completion; the worker exits in this same turn (see settle). */
  complete(status: DoneStatus, payload: string | undefined): void {
    this.settle(completionOutcome(status, payload, this.logs, this.meter, this.#options.limits), true)
  }

  readonly #onMessage = (raw: unknown): void => {
    if (!this.#settled) this.#options.onMessage(raw)
  }
  readonly #onError = (error: unknown): void => {
    this.#lastError = error
  }
  readonly #onExit = (code: number): void => {
    const reason = this.#lastError ?? this.#options.handle.lastError()
    this.fail(
      'worker-exit',
      reason === undefined
        ? `the worker exited unexpectedly (code ${code})`
        : describeWorkerError(reason, this.#options.limits),
    )
  }
  readonly #onAbort = (): void => this.fail('abort', RUN_ABORTED_MESSAGE)
  readonly #onShutdown = (): void => this.fail('abort', RUNTIME_DISPOSED_MESSAGE)
}
