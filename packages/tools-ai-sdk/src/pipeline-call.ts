import type { ToolExecutionResult, ToolProgressUpdate } from '@dsh/tools-core'
import { AiSdkToolError } from './ai-sdk-tool-error'
import type { ProgressRoutes, ProgressSink } from './progress-routes'
import type { AiSdkToolDone, AiSdkToolOutput } from './types'

type Step = IteratorResult<AiSdkToolOutput, undefined>

const END: Step = Object.freeze({ done: true, value: undefined })

function finalOutput(result: ToolExecutionResult): AiSdkToolDone {
  if (result.isError) throw new AiSdkToolError(result)
  const done = { status: 'done' as const, value: result.value, content: result.content }
  return result.additionalContexts === undefined || result.additionalContexts.length === 0
    ? done
    : { ...done, additionalContexts: result.additionalContexts }
}

/**
 * One call as the AI SDK iterates it: each progress report of the body is a preliminary value,
 * the pipeline's result the last one (a failure rejects with {@link AiSdkToolError}). A
 * hand-written async iterator rather than an async generator: the common call, with no
 * progress, costs two promises. Registered for its progress before the call starts (a
 * synchronous pipeline may report before `execute` returns), unregistered when it ends.
 */
export class PipelineCall implements AsyncIterableIterator<AiSdkToolOutput>, ProgressSink {
  private queue: ToolProgressUpdate[] | undefined
  private result: ToolExecutionResult | undefined
  private failure: { readonly error: unknown } | undefined
  private waiting: ((step: Promise<Step> | Step) => void) | undefined
  private finished = false
  private readonly owned: boolean

  constructor(
    private readonly routes: ProgressRoutes,
    private readonly callId: string,
    readonly name: string,
    private readonly cleanup: (() => void) | undefined,
  ) {
    // Ids are the model's and unique per response; a duplicate in flight streams no progress.
    this.owned = !routes.has(callId)
    if (this.owned) routes.set(callId, this)
  }

  /** Follow the running call; its settlement ends the iteration. */
  follow(running: Promise<ToolExecutionResult>): this {
    running.then(
      (result) => {
        this.result = result
        this.wake()
      },
      (error: unknown) => {
        this.failure = { error }
        this.wake()
      },
    )
    return this
  }

  push(update: ToolProgressUpdate): void {
    if (this.finished) return
    if (this.queue === undefined) this.queue = [update]
    else this.queue.push(update)
    this.wake()
  }

  next(): Promise<Step> {
    const step = this.step()
    if (step !== undefined) return step
    return new Promise<Step>((resolve) => {
      this.waiting = resolve
    })
  }

  return(): Promise<Step> {
    this.finish()
    return Promise.resolve(END)
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  /** The next step when one is ready: a queued report, the final value, the end. */
  private step(): Promise<Step> | undefined {
    if (this.finished && this.queue === undefined) return Promise.resolve(END)
    const update = this.queue?.shift()
    if (update !== undefined) {
      if (this.queue!.length === 0) this.queue = undefined
      return Promise.resolve({ done: false, value: { status: 'progress', progress: update } })
    }
    if (this.failure !== undefined) {
      this.finish()
      return Promise.reject(this.failure.error)
    }
    if (this.result === undefined) return undefined
    this.finish()
    try {
      return Promise.resolve({ done: false, value: finalOutput(this.result) })
    } catch (error) {
      return Promise.reject(error)
    }
  }

  private wake(): void {
    const waiting = this.waiting
    if (waiting === undefined) return
    const step = this.step()
    if (step === undefined) return
    this.waiting = undefined
    waiting(step)
  }

  private finish(): void {
    if (this.finished) return
    this.finished = true
    if (this.owned && this.routes.get(this.callId) === this) this.routes.delete(this.callId)
    this.cleanup?.()
  }
}
