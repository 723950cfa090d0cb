import type { Worker } from 'node:worker_threads'
import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'
import type { GrepRequest, GrepResponse } from './grep-protocol'

/**
 * One `grep` call's exclusive use of a worker, under a budget that can really stop it: the
 * matching runs on the worker's thread, so this thread's timer and abort listener stay live and
 * terminate the worker when the budget expires or the call is aborted.
 */
export class GrepWorkerLease {
  readonly #worker: Worker
  readonly #signal: AbortSignal
  readonly #release: (healthy: boolean) => void
  readonly #timer: NodeJS.Timeout
  #failure: unknown
  #reject: ((reason: unknown) => void) | undefined
  #ended = false

  constructor(worker: Worker, signal: AbortSignal, budgetMs: number, release: (healthy: boolean) => void) {
    this.#worker = worker
    this.#signal = signal
    this.#release = release
    this.#timer = setTimeout(
      () =>
        this.#fail(
          new FsToolError(
            FS_TOOL_ERROR_CODES.SEARCH_BUDGET_EXCEEDED,
            `grep stopped after its ${budgetMs} ms budget (grepTimeoutMs); narrow the pattern, path or glob`,
          ),
        ),
      budgetMs,
    )
    signal.addEventListener('abort', this.#onAbort)
    worker.on('error', this.#onError)
    worker.on('exit', this.#onExit)
    if (signal.aborted) this.#onAbort()
  }

  /**
   * Send one batch and wait for its outcome. The files' buffers are transferred to the worker.
   * @throws {FsToolError} `SEARCH_BUDGET_EXCEEDED` or `SEARCH_FAILED`; the abort reason when aborted.
   */
  search(request: GrepRequest): Promise<GrepResponse> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    return new Promise<GrepResponse>((resolve, reject) => {
      this.#reject = reject
      this.#worker.once('message', (response: GrepResponse) => {
        this.#reject = undefined
        resolve(response)
      })
      const transfer = request.files.map((file) => file.bytes.buffer as ArrayBuffer)
      this.#worker.postMessage(request, transfer)
    })
  }

  /** Give the worker back — or terminate it after a failure or while a batch is unanswered. Idempotent. */
  end(): void {
    if (this.#ended) return
    this.#ended = true
    clearTimeout(this.#timer)
    this.#signal.removeEventListener('abort', this.#onAbort)
    this.#worker.off('error', this.#onError)
    this.#worker.off('exit', this.#onExit)
    this.#worker.removeAllListeners('message')
    this.#release(this.#failure === undefined && this.#reject === undefined)
  }

  readonly #onAbort = () => this.#fail(this.#signal.reason)

  readonly #onError = (error: Error) =>
    this.#fail(
      new FsToolError(FS_TOOL_ERROR_CODES.SEARCH_FAILED, `grep worker failed: ${error.message}`, {
        cause: error,
      }),
    )

  readonly #onExit = (code: number) =>
    this.#fail(new FsToolError(FS_TOOL_ERROR_CODES.SEARCH_FAILED, `grep worker exited (code ${code})`))

  #fail(reason: unknown): void {
    if (this.#failure !== undefined || this.#ended) return
    this.#failure = reason
    void this.#worker.terminate()
    this.#reject?.(reason)
    this.#reject = undefined
  }
}
