import { ToolFailedError } from '../errors'
import { type Listener, listenersFor } from '../internal/listeners'
import type { ToolExecutionResult, ToolFailureInfo } from '../types'
import { dispatchView } from './dispatch-view'
import { normalizeOutput } from './normalize-output'
import { failure, failureFromThrow, failureOf } from './results'
import { aborted, isOwnResult, isSignal, refused, runBody } from './run-body'
import type { ToolCall } from './tool-call'

function isInfo(info: unknown): info is ToolFailureInfo {
  return (
    typeof info === 'object' &&
    info !== null &&
    typeof (info as ToolFailureInfo).name === 'string' &&
    typeof (info as ToolFailureInfo).code === 'string'
  )
}

/**
 * A result the waterfall returned that the body step did not produce: renormalize it. A
 * promise only when the tool's output check is asynchronous (a Standard Schema's `validate`).
 */
function adopt(call: ToolCall, returned: unknown): ToolExecutionResult | Promise<ToolExecutionResult> {
  if (isOwnResult(call, returned)) return returned
  const candidate = returned as {
    isError?: unknown
    value?: unknown
    error?: { message?: unknown; info?: unknown }
  }
  if (candidate?.isError === false && 'value' in candidate)
    return normalizeOutput(call.tool!, call.execution, candidate.value, call.runtime.valueLimits)
  if (candidate?.isError === true && typeof candidate.error?.message === 'string') {
    // A wrapper-authored failure keeps the identity it claims (it may carry a code of its own).
    const info = candidate.error.info
    return failure(candidate.error.message, isInfo(info) ? { name: info.name, code: info.code } : undefined)
  }
  return failureOf(new ToolFailedError('tools/execute listener returned an invalid result'))
}

/**
 * The `tools/execute` around-waterfall. Level `i` gets its own view carrying the signal level
 * `i - 1` passed on; `next(signal)` hands `signal` to the next level (`next()` hands on the
 * view's current signal). Each level builds its `next` afresh, so a wrapper that calls it twice
 * (a retry) re-runs the rest of the chain — the body itself only for an idempotent tool (`runBody`).
 */
function runWrappers(
  call: ToolCall,
  listeners: readonly Listener[],
  index: number,
  signal: AbortSignal,
): Promise<ToolExecutionResult> {
  const listener = listeners[index]
  if (listener === undefined) return Promise.resolve(runBody(call, signal))
  const view = dispatchView(call.execution, signal)
  const next = (passed?: AbortSignal): Promise<ToolExecutionResult> => {
    if (passed !== undefined && !isSignal(passed)) {
      return Promise.resolve(
        refused(
          call,
          'tools/execute listener failed: `next()` was given something that is not an AbortSignal',
        ),
      )
    }
    return runWrappers(call, listeners, index + 1, passed ?? view.signal)
  }
  return listener(view, next)
}

/** Wait until no started body is pending: the registry never returns before its bodies settle. */
export async function settleBodies(call: ToolCall): Promise<void> {
  while (call.pending !== undefined && call.pending.size > 0) {
    await Promise.allSettled([...call.pending])
  }
}

/** The dispatch through the wrappers; a throwing wrapper is a `TOOL_FAILED` result. */
async function wrapped(call: ToolCall, listeners: readonly Listener[]): Promise<ToolExecutionResult> {
  let result: ToolExecutionResult
  try {
    const adopted = adopt(call, await runWrappers(call, listeners, 0, call.callerSignal))
    result = adopted instanceof Promise ? await adopted : adopted
  } catch (error) {
    result = failureFromThrow(error, ToolFailedError, 'tools/execute listener failed: ')
  }
  // Close the dispatch before waiting: a `next()` a wrapper fires after this point (even a
  // microtask later) must not start a body we would no longer wait for.
  call.dispatched = true
  await settleBodies(call)
  return result
}

/**
 * Steps 7–8 end: the abort rule over what the dispatch produced (once the caller aborted, a
 * body success is `ABORTED`; any failure stays). Sets `call.result`; after it, no `next()` a
 * wrapper fires runs a body.
 */
export function concludeDispatch(call: ToolCall, result: ToolExecutionResult): void {
  call.dispatched = true
  const final = !result.isError && call.bodyStarted && call.callerSignal.aborted ? aborted() : result
  call.result = final
  // Without wrappers the dispatch result is the body step's own; with them, only if it produced it.
  if (call.bodyStarted && (final !== result || (call.produced !== undefined && !isOwnResult(call, result)))) {
    call.replacedAfterBody = true
  }
}

/**
 * Steps 7–8: the dispatch (wrappers, body, normalization); its result goes to
 * {@link concludeDispatch}. Synchronous when nobody wraps `tools/execute` and the body and its
 * output check are synchronous, so such a call pays for no promise here.
 */
export function dispatchCall(call: ToolCall): ToolExecutionResult | Promise<ToolExecutionResult> {
  const listeners = listenersFor(call.runtime.hooks, 'tools/execute', call.execution.agent)
  if (listeners === undefined) return runBody(call, call.callerSignal)
  call.onBodySettled = undefined
  call.produced = []
  return wrapped(call, listeners)
}
