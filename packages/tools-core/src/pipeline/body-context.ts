import { snapshotJson } from '@dsh/tools-schema'
import { abortLinked, type LinkedSignal, linkSignals } from '../link-signals'
import type { AdditionalContext, ToolExecutionToken, ToolProgressUpdate, ToolRunContext } from '../types'
import { notify } from './notify'
import { sanitizeProgress } from './progress-update'
import type { ToolCall } from './tool-call'

function toContext(value: unknown): AdditionalContext {
  const context = value as Partial<AdditionalContext> | null
  if (typeof context !== 'object' || context === null)
    throw new TypeError('deferContext() takes { source, text, meta? }')
  if (typeof context.source !== 'string' || typeof context.text !== 'string') {
    throw new TypeError('deferContext(): `source` and `text` must be strings')
  }
  if (context.meta === undefined) return Object.freeze({ source: context.source, text: context.text })
  return Object.freeze({ source: context.source, text: context.text, meta: snapshotJson(context.meta) })
}

/**
 * A body's context. `signal` is a getter on the prototype (one hidden class for every context:
 * a per-object accessor gives each context its own, which costs the garbage collector more
 * than the signal it saves). The link is made on the first read of `ctx.signal`, so a body
 * that never looks at it pays nothing for it; every body that does gets its own signal, linked
 * to the caller's and `current` (the one the last wrapper passed on), and aborted directly when a
 * disposal ends the call (no controller per call: the context is remembered on the call once its
 * signal is read), so listeners it adds
 * (and forgets) die with it instead of piling up on a signal many calls share. A first read
 * after the body settled gets a link that is already detached (aborted only if a source was).
 */
class RunContext {
  readonly #call: ToolCall
  readonly #current: AbortSignal
  #live = true
  #linked: LinkedSignal | undefined = undefined
  readonly token: ToolExecutionToken
  readonly callId: string
  readonly name: string
  readonly arguments: ToolRunContext['arguments']
  readonly deferContext: ToolRunContext['deferContext']
  readonly progress: ToolRunContext['progress']
  declare readonly agent?: string
  declare readonly parent?: ToolExecutionToken

  constructor(call: ToolCall, current: AbortSignal) {
    const { execution, deferred } = call
    this.#call = call
    this.#current = current
    this.token = execution.token
    this.callId = execution.callId
    this.name = execution.name
    this.arguments = execution.arguments
    this.deferContext = (value: AdditionalContext): void => {
      deferred.push(toContext(value))
    }
    this.progress = (update: ToolProgressUpdate): void => {
      if (!this.#live || call.runtime.hooks['tools/progress'] === undefined) return
      const clean = sanitizeProgress(update)
      if (clean !== undefined) notify(call, 'tools/progress', clean)
    }
    const self = this as { agent?: string; parent?: ToolExecutionToken }
    if (execution.agent !== undefined) self.agent = execution.agent
    if (execution.parent !== undefined) self.parent = execution.parent
  }

  get signal(): AbortSignal {
    if (this.#linked === undefined) {
      const call = this.#call
      this.#linked = linkSignals(call.callerSignal, this.#current)
      if (!this.#live) this.#linked.dispose()
      else if (call.ended !== undefined) abortLinked(this.#linked, call.ended)
      else if (call.signalled === undefined) call.signalled = [this]
      else call.signalled.push(this)
    }
    return this.#linked.signal
  }

  /** A disposal ended the call: abort the live body's signal now. */
  static end(context: RunContext, reason: unknown): void {
    if (context.#live && context.#linked !== undefined) abortLinked(context.#linked, reason)
  }

  /** End the body: `progress` becomes a no-op and the signal leaves its sources. */
  static close(context: RunContext): void {
    context.#live = false
    context.#linked?.dispose()
  }
}

/** The frozen context a body runs with (`ctx` in `execute(args, ctx)`); end it with {@link closeBody}. */
export function bodyContext(call: ToolCall, current: AbortSignal): ToolRunContext {
  return Object.freeze(new RunContext(call, current)) as unknown as ToolRunContext
}

/**
 * End a body: its `progress` becomes a no-op and its signal leaves the signals it follows.
 * Idempotent. (A plain function rather than a `{ context, close }` pair: two objects fewer per call.)
 */
export function closeBody(context: ToolRunContext): void {
  RunContext.close(context as unknown as RunContext)
}

/** A disposal ended `call`: abort the signal of every live body of it that has read its signal. */
export function endBodies(call: ToolCall, reason: unknown): void {
  const contexts = call.signalled
  if (contexts === undefined) return
  for (const context of contexts) RunContext.end(context as RunContext, reason)
}
