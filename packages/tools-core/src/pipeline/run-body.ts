import { ToolAbortedError, ToolFailedError } from '../errors'
import type { ToolExecutionResult, ToolRunContext } from '../types'
import { bodyContext, closeBody } from './body-context'
import { normalizeOutput } from './normalize-output'
import { notifyStage, Stage } from './notify'
import { abortedBeforeDispatch, failureFromThrow, failureOf } from './results'
import type { ToolCall } from './tool-call'

/** Remember a result the body step produced, when wrappers run (only they can hand back others). */
function tag(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  call.produced?.push(result)
  return result
}

/** Whether `value` is a result this call's body step produced (so it needs no renormalizing). */
export function isOwnResult(call: ToolCall, value: unknown): value is ToolExecutionResult {
  return call.produced?.includes(value as ToolExecutionResult) === true
}

/** Whether `value` looks like an `AbortSignal` (wrappers may hand over anything). */
export function isSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  )
}

/**
 * Whether a body's rejection is the caller's abort itself: the caller's signal is aborted and
 * the body rejected with its reason, or with any `AbortError` (what `fetch`, streams, timers and
 * child processes reject with when the signal they were given aborts).
 */
function isCallerAbort(call: ToolCall, error: unknown): boolean {
  const signal = call.callerSignal
  if (!signal.aborted) return false
  if (error === signal.reason) return true
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}

/** The `ABORTED` failure: the caller aborted after the body started. */
export function aborted(): ToolExecutionResult {
  return failureOf(new ToolAbortedError())
}

/**
 * The body settled: silence its progress, detach its signal, turn its value (normalized under
 * the output declaration) or its throw into the result, and tell stage observers. A promise
 * only when the tool's output check is asynchronous (a Standard Schema's `validate`).
 */
function endBody(
  call: ToolCall,
  context: ToolRunContext,
  settled: { readonly value: unknown } | { readonly error: unknown },
): ToolExecutionResult | Promise<ToolExecutionResult> {
  closeBody(context)
  if ('value' in settled) {
    const normalized = normalizeOutput(call.tool!, call.execution, settled.value, call.runtime.valueLimits)
    if (normalized instanceof Promise) return normalized.then((result) => bodyResult(call, result))
    return bodyResult(call, normalized)
  }
  const error = settled.error
  return bodyResult(call, isCallerAbort(call, error) ? aborted() : failureFromThrow(error, ToolFailedError))
}

/** Tell stage observers how the body ended and remember the result as this call's own. */
function bodyResult(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  notifyStage(call, result.isError ? Stage.BODY_FAILED : Stage.BODY_OK)
  return tag(call, result)
}

/**
 * Await an asynchronous body. While wrappers run it is tracked in `call.pending` until it
 * settles (a wrapper may return before the body it started; the dispatch waits for it). Without
 * wrappers the dispatch awaits this very promise, so there is nothing to track.
 */
async function awaitBody(
  call: ToolCall,
  promise: Promise<unknown>,
  context: ToolRunContext,
): Promise<ToolExecutionResult> {
  const pending = call.produced === undefined ? undefined : (call.pending ??= new Set())
  pending?.add(promise)
  let settled: { readonly value: unknown } | { readonly error: unknown }
  try {
    settled = { value: await promise }
  } catch (error) {
    settled = { error }
  }
  pending?.delete(promise)
  call.onBodySettled?.()
  return endBody(call, context, settled)
}

/** A `TOOL_FAILED` result of this dispatch that runs no body (a refused `next()`). */
export function refused(call: ToolCall, message: string): ToolExecutionResult {
  return tag(call, failureOf(new ToolFailedError(message)))
}

/**
 * The innermost `next`: run the body under `current` (the signal the last wrapper passed on)
 * linked with the caller's own, and turn what it returns into the result. Synchronous when the
 * body is, so the bare path pays for no extra promise.
 */
export function runBody(
  call: ToolCall,
  current: unknown,
): ToolExecutionResult | Promise<ToolExecutionResult> {
  if (call.dispatched) return refused(call, 'the dispatch of this call is over')
  if (call.ended !== undefined) return tag(call, failureOf(call.ended))
  if (call.callerSignal.aborted) return tag(call, abortedBeforeDispatch())
  if (!isSignal(current)) {
    return refused(
      call,
      'tools/execute listener failed: `exec.signal` was replaced by something that is not an AbortSignal',
    )
  }
  const tool = call.tool!
  // Annotations are the one source of effects (SPEC §13.2): a wrapper calling `next()` again (a
  // retry) runs the body a second time only for a tool annotated `idempotent: true`.
  if (call.bodyStarted && tool.definition.annotations?.idempotent !== true) {
    return refused(
      call,
      `\`${call.execution.name}\` ran once in this call and is not annotated \`idempotent: true\`, so a tools/execute listener cannot run it again`,
    )
  }
  const context = bodyContext(call, current)
  call.bodyStarted = true
  notifyStage(call, Stage.BODY_START)
  let value: unknown
  try {
    value = tool.definition.execute(
      call.parsed === undefined ? context.arguments : call.parsed.value,
      context,
    )
  } catch (error) {
    return endBody(call, context, { error })
  }
  if (typeof (value as PromiseLike<unknown> | null)?.then === 'function')
    return awaitBody(call, Promise.resolve(value), context)
  return endBody(call, context, { value })
}
