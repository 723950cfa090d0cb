/**
 * The host side of one run on one fresh Pyodide worker: sends the program, forwards binding
 * calls to `host.call`, streams logs, enforces the budgets, and settles once the program can no
 * longer run: on the worker's completion message (the worker exits in that same turn), or, when
 * the host kills the worker, after its `exit` event.
 */
import type { CodeRunFailureKind, CodeRunHost, CodeRunOutcome } from '@dsh/tools-codemode'
import {
  callFailureOf,
  completionOutcome,
  createCallCursor,
  type DoneStatus,
  describeWorkerError,
  encodeCallValue,
  failedOutcome,
  nonJsonValueMessage,
  OutputMeter,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
  startBudgetWatchdog,
  utf8LineCost,
} from '@dsh/tools-codemode/runtime-kit'
import type { WorkerHandle } from '../pool/worker-handle'
import type { ReplyMessage, RunMessage, WorkerCall } from '../protocol/messages'
import { parseWorkerMessage } from '../protocol/parse-worker-message'
import type { JsonValue, ResolvedPyodideRuntimeConfig } from '../types'
import { CALL_LIMITS } from './call-limits'

/** What one run needs besides its worker. */
export interface RunSessionInput {
  /** The program: the body of an async Python function. */
  readonly source: string
  readonly toolNames: readonly string[]
  readonly host: CodeRunHost
  readonly config: ResolvedPyodideRuntimeConfig
  /** Aborted when the runtime is disposed: the run ends as `abort`. */
  readonly shutdown: AbortSignal
}

/** SIGINT, as Pyodide's interrupt buffer expects it. */
const SIGINT = 2

/** The reply to a settled call: the value's JSON text, or the failure's tool name and message only. */
function replyFor(call: WorkerCall, settled: PromiseSettledResult<JsonValue>): ReplyMessage {
  if (settled.status === 'fulfilled') {
    const text = encodeCallValue(settled.value)
    return text === undefined
      ? { k: 'res', i: call.id, ok: false, a: call.name, b: nonJsonValueMessage(call.name) }
      : { k: 'res', i: call.id, ok: true, a: text, b: null }
  }
  const failure = callFailureOf(settled.reason, call.name)
  return { k: 'res', i: call.id, ok: false, a: failure.toolName, b: failure.message }
}

/**
 * Run a program on `handle` (already booted). Resolves once the outcome is known and no program
 * code can run any more; never rejects. The caller tracks `handle.exited`.
 */
export function runSession(handle: WorkerHandle, input: RunSessionInput): Promise<CodeRunOutcome> {
  const { worker } = handle
  const { host, config } = input
  const logs: string[] = []
  const cursor = createCallCursor(input.toolNames)
  // Lines cost their UTF-8 size, at least one byte: the same rule the worker applies.
  const meter = new OutputMeter(config, utf8LineCost)
  let settled = false
  let lastError: unknown
  let stopBudget = (): void => {}
  let resolveOutcome: (outcome: CodeRunOutcome) => void = () => {}
  const outcome = new Promise<CodeRunOutcome>((resolve) => {
    resolveOutcome = resolve
  })

  /**
   * End the run. `exiting` is true only on the worker's completion message, posted in the same
   * synchronous turn as the worker's `process.exit()`, so nothing of the program runs after it.
   * Every other ending (a kill) resolves after the `exit` event. Either way the host terminates
   * the worker too.
   */
  const settle = (result: CodeRunOutcome, exiting = false): void => {
    if (settled) return
    settled = true
    stopBudget()
    host.signal.removeEventListener('abort', onAbort)
    input.shutdown.removeEventListener('abort', onShutdown)
    worker.off('message', onMessage)
    worker.off('error', onError)
    worker.off('exit', onExit)
    if (!handle.hasExited()) void worker.terminate().catch(() => {})
    if (exiting) resolveOutcome(result)
    else void handle.exited.then(() => resolveOutcome(result))
  }
  const fail = (kind: CodeRunFailureKind, message: string, exiting = false): void =>
    settle(failedOutcome(kind, message, logs), exiting)

  const onLog = (line: string): void => {
    const over = meter.admitLine(line)
    if (over !== undefined) {
      fail('output-limit', over)
      return
    }
    logs.push(line)
    try {
      host.onLog?.(line)
    } catch {
      // A failing log sink must not break the run.
    }
  }

  let outstanding = 0
  const dispatch = (call: WorkerCall): void => {
    if (call.argsText.length > CALL_LIMITS.maxArgumentChars) {
      fail('invalid-output', `protocol violation: the arguments of call ${call.id} exceed the size cap`)
      return
    }
    if (outstanding >= CALL_LIMITS.maxOutstandingCalls) {
      const message = `too many tool calls outstanding (${CALL_LIMITS.maxOutstandingCalls}); await some first`
      worker.postMessage({ k: 'res', i: call.id, ok: false, a: call.name, b: message } satisfies ReplyMessage)
      return
    }
    outstanding += 1
    let args: JsonValue
    try {
      args = JSON.parse(call.argsText) as JsonValue
    } catch {
      fail('invalid-output', `protocol violation: the arguments of call ${call.id} are not JSON text`)
      return
    }
    let pending: Promise<JsonValue>
    try {
      pending = host.call(call.name, args)
    } catch (error) {
      pending = Promise.reject(error)
    }
    void Promise.allSettled([pending]).then(([result]) => {
      outstanding -= 1
      if (!settled && result !== undefined) worker.postMessage(replyFor(call, result))
    })
  }

  // The worker exits in the same turn it posts its completion, so this settles at once.
  const onDone = (status: DoneStatus, payload: string | undefined): void =>
    settle(completionOutcome(status, payload, logs, meter), true)

  function onMessage(raw: unknown): void {
    if (settled) return
    const parsed = parseWorkerMessage(raw, cursor)
    if (!parsed.ok) {
      fail('invalid-output', `protocol violation: ${parsed.reason}`)
      return
    }
    const message = parsed.message
    switch (message.kind) {
      case 'log':
        onLog(message.line)
        return
      case 'call':
        dispatch(message.call)
        return
      case 'done':
        onDone(message.status, message.payload)
        return
      case 'ready':
      case 'boot-failed':
        fail('invalid-output', `protocol violation: unexpected ${message.kind} message`)
        return
    }
  }
  function onError(error: unknown): void {
    lastError = error
  }
  function onExit(code: number): void {
    const reason = lastError ?? handle.lastError()
    fail(
      'worker-exit',
      reason === undefined
        ? `the worker exited unexpectedly (code ${code})`
        : describeWorkerError(reason, config),
    )
  }
  function onAbort(): void {
    fail('abort', RUN_ABORTED_MESSAGE)
  }
  function onShutdown(): void {
    fail('abort', RUNTIME_DISPOSED_MESSAGE)
  }

  if (host.signal.aborted || input.shutdown.aborted) {
    fail('abort', host.signal.aborted ? RUN_ABORTED_MESSAGE : RUNTIME_DISPOSED_MESSAGE)
    return outcome
  }
  if (handle.hasExited()) {
    onExit(-1)
    return outcome
  }
  host.signal.addEventListener('abort', onAbort, { once: true })
  input.shutdown.addEventListener('abort', onShutdown, { once: true })
  worker.on('message', onMessage)
  worker.on('error', onError)
  worker.on('exit', onExit)
  const message: RunMessage = {
    k: 'run',
    code: input.source,
    names: JSON.stringify(input.toolNames),
    limit: config.maxOutputBytes,
  }
  worker.postMessage(message)
  stopBudget = startBudgetWatchdog(worker, config, (message) => {
    // Stop the interpreter at its next bytecode, so no further call or line leaves it; the kill
    // that follows also ends code that catches KeyboardInterrupt.
    Atomics.store(handle.interrupt, 0, SIGINT)
    fail('timeout', message)
  })
  return outcome
}
