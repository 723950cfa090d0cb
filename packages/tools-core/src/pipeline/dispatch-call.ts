import { snapshotJson } from '@dsh/tools-schema'
import { ToolErrorCode } from '../errors'
import { listenersFor, runWaterfall } from '../internal/listeners'
import { type LinkedSignal, linkSignals } from '../link-signals'
import type {
  AdditionalContext,
  ToolDispatchExecution,
  ToolExecutionResult,
  ToolExecutionToken,
  ToolFailureInfo,
  ToolProgressUpdate,
  ToolRunContext,
} from '../types'
import { normalizeOutput } from './normalize-output'
import { notify, notifyStage, Stage } from './notify'
import { sanitizeProgress } from './progress-update'
import { abortedBeforeDispatch, codedFailure, failure, failureFromThrow } from './results'
import type { ToolCall } from './tool-call'

/** Results normalized by the registry, tagged with the dispatch token they belong to. */
const owner = new WeakMap<object, ToolExecutionToken>()

function tag(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  owner.set(result, call.execution.token)
  return result
}

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

/** A body's run context plus the switch that turns its `progress` into a no-op once it settled. */
interface RunContext {
  readonly context: ToolRunContext
  close(): void
}

function runContext(call: ToolCall, signal: AbortSignal): RunContext {
  const { execution, deferred } = call
  let live = true
  const context = {
    token: execution.token,
    callId: execution.callId,
    name: execution.name,
    arguments: execution.arguments,
    signal,
    deferContext(value: AdditionalContext): void {
      deferred.push(toContext(value))
    },
    progress(update: ToolProgressUpdate): void {
      if (!live || call.runtime.hooks['tools/progress'] === undefined) return
      const clean = sanitizeProgress(update)
      if (clean !== undefined) notify(call, 'tools/progress', clean)
    },
  } as ToolRunContext & { agent?: string; parent?: ToolExecutionToken }
  if (execution.agent !== undefined) context.agent = execution.agent
  if (execution.parent !== undefined) context.parent = execution.parent
  return {
    context: Object.freeze(context),
    close: () => {
      live = false
    },
  }
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

function bodyFailure(call: ToolCall, error: unknown): ToolExecutionResult {
  if (isCallerAbort(call, error)) return aborted()
  return failureFromThrow(error, ToolErrorCode.TOOL_FAILED, 'ToolFailedError')
}

function aborted(): ToolExecutionResult {
  return codedFailure(ToolErrorCode.ABORTED, 'ToolAbortedError', 'tool call aborted')
}

/** The body settled: silence its progress, detach its signal, tell stage observers. */
function endBody(call: ToolCall, run: RunContext, signal: LinkedSignal, result: ToolExecutionResult) {
  run.close()
  signal.dispose()
  notifyStage(call, result.isError ? Stage.BODY_FAILED : Stage.BODY_OK)
  return tag(call, result)
}

/** Await an asynchronous body, tracking it until it settles; then detach its signal. */
async function awaitBody(
  call: ToolCall,
  promise: Promise<unknown>,
  run: RunContext,
  signal: LinkedSignal,
): Promise<ToolExecutionResult> {
  const pending = (call.pending ??= new Set())
  pending.add(promise)
  let value: unknown
  try {
    value = await promise
  } catch (error) {
    pending.delete(promise)
    return endBody(call, run, signal, bodyFailure(call, error))
  }
  pending.delete(promise)
  const normalized = normalizeOutput(call.tool!, call.execution, value)
  return endBody(call, run, signal, normalized instanceof Promise ? await normalized : normalized)
}

function isSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  )
}

/**
 * The innermost `next`: re-fuse the caller's signal, run the body, normalize its value.
 * Synchronous when the body is, so the bare path pays for no extra promise.
 */
function invokeBody(
  call: ToolCall,
  current: AbortSignal,
): ToolExecutionResult | Promise<ToolExecutionResult> {
  if (call.dispatched) {
    return tag(
      call,
      codedFailure(ToolErrorCode.TOOL_FAILED, 'ToolFailedError', 'the dispatch of this call is over'),
    )
  }
  if (call.callerSignal.aborted) {
    return tag(call, abortedBeforeDispatch())
  }
  if (!isSignal(current)) {
    return tag(
      call,
      codedFailure(
        ToolErrorCode.TOOL_FAILED,
        'ToolFailedError',
        'tools/execute listener failed: `exec.signal` was replaced by something that is not an AbortSignal',
      ),
    )
  }
  const tool = call.tool!
  // Every body gets its own signal, linked to the caller's and the current one: listeners a
  // body adds (and forgets) die with it instead of piling up on a signal many calls share.
  const signal = linkSignals(call.callerSignal, current)
  const run = runContext(call, signal.signal)
  call.bodyStarted = true
  notifyStage(call, Stage.BODY_START)
  let value: unknown
  try {
    value = tool.definition.execute(
      call.parsed === undefined ? run.context.arguments : call.parsed.value,
      run.context,
    )
  } catch (error) {
    return endBody(call, run, signal, bodyFailure(call, error))
  }
  if (typeof (value as PromiseLike<unknown> | null)?.then === 'function')
    return awaitBody(call, Promise.resolve(value), run, signal)
  const normalized = normalizeOutput(tool, call.execution, value)
  // only an asynchronous `parseOutput` (a Standard Schema output) makes this a promise
  if (normalized instanceof Promise) return normalized.then((result) => endBody(call, run, signal, result))
  return endBody(call, run, signal, normalized)
}

function isInfo(info: unknown): info is ToolFailureInfo {
  return (
    typeof info === 'object' &&
    info !== null &&
    typeof (info as ToolFailureInfo).name === 'string' &&
    typeof (info as ToolFailureInfo).code === 'string'
  )
}

/** A result the waterfall returned that this dispatch did not normalize: renormalize it. */
function adopt(call: ToolCall, returned: unknown): ToolExecutionResult | Promise<ToolExecutionResult> {
  if (typeof returned === 'object' && returned !== null && owner.get(returned) === call.execution.token) {
    return returned as ToolExecutionResult
  }
  const candidate = returned as {
    isError?: unknown
    value?: unknown
    error?: { message?: unknown; info?: unknown }
  }
  if (candidate?.isError === false && 'value' in candidate)
    return normalizeOutput(call.tool!, call.execution, candidate.value)
  if (candidate?.isError === true && typeof candidate.error?.message === 'string') {
    const info = candidate.error.info
    return failure(candidate.error.message, isInfo(info) ? { name: info.name, code: info.code } : undefined)
  }
  return codedFailure(
    ToolErrorCode.TOOL_FAILED,
    'ToolFailedError',
    'tools/execute listener returned an invalid result',
  )
}

function readOnly(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: false, configurable: false }
}

/**
 * The view `tools/execute` wrappers get: every field read-only except `signal`, which may be
 * replaced (the body refuses anything that is not an `AbortSignal`) but never deleted.
 */
function dispatchView(call: ToolCall): ToolDispatchExecution {
  const { execution } = call
  const descriptors: PropertyDescriptorMap = {
    token: readOnly(execution.token),
    callId: readOnly(execution.callId),
    name: readOnly(execution.name),
    arguments: readOnly(execution.arguments),
  }
  if (execution.agent !== undefined) descriptors.agent = readOnly(execution.agent)
  if (execution.parent !== undefined) descriptors.parent = readOnly(execution.parent)
  return Object.seal(
    Object.defineProperties({ signal: execution.signal }, descriptors),
  ) as ToolDispatchExecution
}

/** Wait until no started body is pending: the registry never returns before its bodies settle. */
async function settleBodies(call: ToolCall): Promise<void> {
  while (call.pending !== undefined && call.pending.size > 0) {
    await Promise.allSettled([...call.pending])
  }
}

/**
 * Steps 7–8: the `tools/execute` around-waterfall over the dispatch, the body, normalization
 * and the abort rule: once the caller aborted, a body success, or a body rejection with the
 * abort itself (its reason or an `AbortError`), is `ABORTED`; any other failure stays.
 */
export async function dispatchCall(call: ToolCall): Promise<void> {
  const listeners = listenersFor(call.runtime.hooks, 'tools/execute', call.execution.agent)
  let result: ToolExecutionResult
  if (listeners === undefined) {
    const invoked = invokeBody(call, call.callerSignal)
    result = invoked instanceof Promise ? await invoked : invoked
  } else {
    const view = dispatchView(call)
    try {
      const adopted = adopt(
        call,
        await runWaterfall(listeners, [view], () => Promise.resolve(invokeBody(call, view.signal))),
      )
      result = adopted instanceof Promise ? await adopted : adopted
    } catch (error) {
      result = failureFromThrow(
        error,
        ToolErrorCode.TOOL_FAILED,
        'ToolFailedError',
        'tools/execute listener failed: ',
      )
    }
    // Close the dispatch before waiting: a `next()` a wrapper fires after this point (even a
    // microtask later) must not start a body we would no longer wait for.
    call.dispatched = true
    await settleBodies(call)
  }
  call.dispatched = true
  if (!result.isError && call.bodyStarted && call.callerSignal.aborted) result = aborted()
  call.result = result
}
