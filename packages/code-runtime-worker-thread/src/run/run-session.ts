/**
 * The host side of one run on one fresh worker: sends the program, forwards binding calls to
 * `host.call`, streams logs, enforces the budgets, and settles once the program can no longer
 * run: on the worker's completion message (the worker exits in that same turn), or, when the
 * host kills the worker, after its `exit` event.
 */
import type { CodeRunFailureKind, CodeRunHost, CodeRunOutcome } from '@dsh/tools-codemode'
import {
  completionOutcome,
  createCallCursor,
  type DoneStatus,
  failedOutcome,
  OutputMeter,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
  startBudgetWatchdog,
  utf8LineWithBreakCost,
} from '@dsh/tools-codemode/runtime-kit'
import { describeWorkerError, type WorkerHandle } from '../pool/worker-handle'
import { type CallSlotBatch, CallSlotReader } from '../protocol/call-slot'
import type { RunMessage, WorkerCall } from '../protocol/messages'
import { type ParsedWorkerMessage, parseCallText, parseWorkerMessage } from '../protocol/parse-worker-message'
import { ReplySlotWriter } from '../protocol/reply-slot'
import type { JsonValue, ResolvedWorkerThreadRuntimeConfig } from '../types'
import { ReplyBatcher } from './reply-batcher'

/** What one run needs besides its worker. */
export interface RunSessionInput {
  /** The type-stripped program, wrapped as an async arrow function expression. */
  readonly source: string
  readonly toolNames: readonly string[]
  readonly host: CodeRunHost
  readonly config: ResolvedWorkerThreadRuntimeConfig
  /** Aborted when the runtime is disposed: the run ends as `abort`. */
  readonly shutdown: AbortSignal
}

/**
 * The longest result a program may receive, in string units: a quarter of its memory cap, as
 * the worker holds a reply as a message, as text and as the parsed value at once.
 */
function maxReplyUnits(config: ResolvedWorkerThreadRuntimeConfig): number {
  return Math.floor((config.maxOldGenerationSizeMb * 1024 * 1024) / 4)
}

/**
 * Run a program on `handle` (already booted). Resolves once the outcome is known and no program
 * code can run any more (see `settle`); never rejects. The caller tracks `handle.exited`.
 */
export function runSession(handle: WorkerHandle, input: RunSessionInput): Promise<CodeRunOutcome> {
  const { worker } = handle
  const { host, config } = input
  const logs: string[] = []
  const cursor = createCallCursor(input.toolNames)
  // Every line costs its size plus its line break, so a flood of empty lines is bounded too.
  const meter = new OutputMeter(config, utf8LineWithBreakCost)
  let settled = false
  let lastError: unknown
  let stopBudget = (): void => {}
  let resolveOutcome: (outcome: CodeRunOutcome) => void = () => {}
  const outcome = new Promise<CodeRunOutcome>((resolve) => {
    resolveOutcome = resolve
  })
  const replySlot = handle.replySlot === undefined ? undefined : new ReplySlotWriter(handle.replySlot)
  const callSlot = handle.callSlot === undefined ? undefined : new CallSlotReader(handle.callSlot)
  let stopCallSlot = (): void => {}
  const replies = new ReplyBatcher((batch) => {
    if (settled) return
    const delivery = replySlot === undefined ? 'refused' : replySlot.offer(batch)
    if (delivery === 'refused') worker.postMessage({ k: 'res', r: batch })
    else if (delivery === 'needs-wake') worker.postMessage({ k: 'wake' })
  }, maxReplyUnits(config))

  /**
   * End the run. `exiting` is true only on the worker's completion message: the bootstrap posts
   * it and calls `process.exit()` (V8 `TerminateExecution`) in the same synchronous turn, so no
   * program code, microtask or timer can run after it and the outcome need not wait for the
   * thread's teardown. Every other ending (a kill) resolves only after the `exit` event. In both
   * cases the host terminates the worker too, and the runtime keeps tracking it until it exits.
   */
  const settle = (result: CodeRunOutcome, exiting = false): void => {
    if (settled) return
    settled = true
    stopBudget()
    stopCallSlot()
    host.signal.removeEventListener('abort', onAbort)
    input.shutdown.removeEventListener('abort', onShutdown)
    worker.off('message', onMessage)
    worker.off('messageerror', onMessageError)
    worker.off('error', onError)
    worker.off('exit', onExit)
    if (!handle.hasExited()) void worker.terminate().catch(() => {})
    if (exiting) resolveOutcome(result)
    else void handle.exited.then(() => resolveOutcome(result))
  }
  const fail = (kind: CodeRunFailureKind, message: string, exiting = false): void =>
    settle(failedOutcome(kind, message, logs), exiting)

  /** Account and forward lines; the run fails on the first line past `maxOutputBytes`. */
  const onLogs = (lines: readonly string[]): void => {
    for (const line of lines) {
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
  }

  const dispatch = (call: WorkerCall): void => {
    let pending: Promise<JsonValue>
    try {
      pending = host.call(call.name, call.args as JsonValue)
    } catch (error) {
      pending = Promise.reject(error)
    }
    replies.expect()
    pending.then(
      (value) => {
        if (!settled) replies.value(call.id, call.name, value)
      },
      (error: unknown) => {
        if (!settled) replies.error(call.id, call.name, error)
      },
    )
  }

  // The worker exits in the same turn it posts its completion (see settle), so every outcome
  // decided here settles without waiting for the thread's teardown.
  const onDone = (status: DoneStatus, payload: string | undefined): void =>
    settle(completionOutcome(status, payload, logs, meter), true)

  /** Dispatch a batch of calls, then tell the call slot's writer how far the host has accepted. */
  const onCalls = (calls: readonly WorkerCall[]): void => {
    for (const call of calls) dispatch(call)
    callSlot?.accept(cursor.nextCallId - 1)
  }

  /** Messages received from the worker in this run; a slot batch waits for those before it. */
  let received = 0
  /** A slot batch taken before the messages posted ahead of it arrived. */
  let heldBatch: CallSlotBatch | undefined

  /**
   * Dispatch the call slot's batch (`protocol/call-slot.ts`) once every message the worker
   * posted before writing it has been handled; it is validated like a message.
   */
  const takeCalls = (): void => {
    if (callSlot === undefined) return
    while (!settled) {
      const batch = heldBatch ?? callSlot.take()
      if (batch === undefined) return
      if (batch.after > received) {
        heldBatch = batch
        return
      }
      heldBatch = undefined
      onParsed(parseCallText(batch.text, cursor))
    }
  }

  function onMessage(raw: unknown): void {
    if (settled) return
    // A batch written before this message was posted goes first; one written after it, next.
    takeCalls()
    if (settled) return
    received += 1
    onParsed(parseWorkerMessage(raw, cursor))
    takeCalls()
  }

  function onParsed(parsed: ParsedWorkerMessage): void {
    if (!parsed.ok) {
      if (parsed.unreadable) failUnreadable(parsed.reason)
      else fail('invalid-output', `protocol violation: ${parsed.reason}`)
      return
    }
    const message = parsed.message
    switch (message.kind) {
      case 'log':
        onLogs(message.lines)
        return
      case 'calls':
        onCalls(message.calls)
        return
      case 'done':
        onDone(message.status, message.payload)
        return
      case 'ready':
        fail('invalid-output', 'protocol violation: unexpected ready message')
        return
    }
  }
  /**
   * A message the worker could clone but the host cannot deserialize (binding arguments nested
   * thousands of levels deep overflow the host's deserializer): the call it carried is lost, so
   * the run cannot go on. The program's own values caused it, hence `exception`.
   */
  function onMessageError(): void {
    failUnreadable('for example, tool arguments nested too deeply')
  }
  function failUnreadable(reason: string): void {
    fail('exception', `a message from the program could not be read on the host (${reason})`)
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
        : describeWorkerError(reason, { maxOldGenerationSizeMb: config.maxOldGenerationSizeMb }),
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
  worker.on('messageerror', onMessageError)
  worker.on('error', onError)
  worker.on('exit', onExit)
  const message: RunMessage = {
    k: 'run',
    code: input.source,
    names: JSON.stringify(input.toolNames),
    limit: config.maxOutputBytes,
    lines: config.maxLogLines,
  }
  worker.postMessage(message)
  if (callSlot !== undefined) stopCallSlot = callSlot.watch(takeCalls)
  stopBudget = startBudgetWatchdog(worker, config, (message) => fail('timeout', message))
  return outcome
}
