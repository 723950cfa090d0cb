/**
 * The host side of one run on one fresh worker: sends the program, forwards binding calls to
 * `host.call`, streams logs, enforces the budgets, and settles once the program can no longer
 * run: on the worker's completion message (the worker exits in that same turn), or, when the
 * host kills the worker, after its `exit` event.
 */
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import {
  createCallCursor,
  jsonValueIssue,
  type RunSessionInput as KitRunSessionInput,
  RunDriver,
  runMessage,
  utf8LineWithBreakCost,
  valueLimitMessage,
  valueTextIssue,
} from '@dsh/tools-codemode/runtime-kit'
import type { WorkerHandle } from '../pool/worker-handle'
import { type CallSlotBatch, CallSlotReader } from '../protocol/call-slot'
import type { WorkerCall } from '../protocol/messages'
import { type ParsedWorkerMessage, parseCallText, parseWorkerMessage } from '../protocol/parse-worker-message'
import { ReplySlotWriter } from '../protocol/reply-slot'
import type { JsonValue, ResolvedWorkerThreadRuntimeConfig } from '../types'
import { createHostSpinMeter, HostSpin, type HostSpinMeter } from './host-spin'
import { ReplyBatcher } from './reply-batcher'

/**
 * What one run needs besides its worker; `source` is the type-stripped program, wrapped as an
 * async arrow function expression.
 */
export interface RunSessionInput extends KitRunSessionInput<ResolvedWorkerThreadRuntimeConfig> {
  /** Where the run's host-side spinning is counted (the runtime's stats); uncounted if absent. */
  readonly spinMeter?: HostSpinMeter
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
 * code can run any more (see `RunDriver.settle`); never rejects. The caller tracks `handle.exited`.
 */
export function runSession(handle: WorkerHandle, input: RunSessionInput): Promise<CodeRunOutcome> {
  const { worker } = handle
  const { host, config } = input
  const cursor = createCallCursor(input.toolNames)
  const replySlot = handle.replySlot === undefined ? undefined : new ReplySlotWriter(handle.replySlot)
  const callSlot = handle.callSlot === undefined ? undefined : new CallSlotReader(handle.callSlot)
  const run = new RunDriver({
    handle,
    host,
    shutdown: input.shutdown,
    limits: config,
    // Every line costs its size plus its line break, so a flood of empty lines is bounded too.
    lineCost: utf8LineWithBreakCost,
    onMessage,
    onMessageError,
    afterPost: callSlot === undefined ? undefined : () => callSlot.watch(takeCalls),
  })
  const spin =
    callSlot === undefined || config.hostSpinMicros === 0
      ? undefined
      : new HostSpin(config.hostSpinMicros, input.spinMeter ?? createHostSpinMeter())
  const replies = new ReplyBatcher((batch) => {
    if (run.settled) return
    const delivery = replySlot === undefined ? 'refused' : replySlot.offer(batch)
    if (delivery === 'refused') worker.postMessage({ k: 'res', r: batch })
    else if (delivery === 'needs-wake') worker.postMessage({ k: 'wake' })
    // A worker already running its program, with nothing left to wait for, answers with its next
    // call at once (the sequential pattern): catch it without an event-loop wake (`host-spin.ts`).
    else if (spin !== undefined && replies.outstanding === 0 && heldBatch === undefined) {
      spin.spinAndTake(callSlot!, takeCalls)
    }
  }, maxReplyUnits(config))

  /** Account and forward lines; the run fails on the first line past `maxOutputBytes`. */
  const onLogs = (lines: readonly string[]): void => {
    for (const line of lines) if (!run.log(line)) return
  }

  /**
   * Arguments that arrived as JSON text go to `host.callJson`, which parses them into a value it
   * owns; a host without it gets them parsed here (text that is not JSON fails that call).
   */
  const callHost = (call: WorkerCall): Promise<JsonValue> => {
    if (call.argsJson === undefined) return host.call(call.name, call.args as JsonValue)
    if (host.callJson !== undefined) return host.callJson(call.name, call.argsJson)
    return host.call(call.name, JSON.parse(call.argsJson) as JsonValue)
  }

  /**
   * The host's own check of a call's arguments against `maxValueNodes` / `maxValueDepth`,
   * whatever the worker checked: one scan of the text before anything parses it, or one walk of
   * a structured clone (the host's own copy) before it is snapshotted.
   */
  const argumentsIssue = (call: WorkerCall): string | undefined => {
    const what = `arguments for ${call.name}`
    if (call.argsJson !== undefined) return valueTextIssue(call.argsJson, what, config)
    const issue = jsonValueIssue(call.args, {
      maxNodes: config.maxValueNodes,
      maxDepth: config.maxValueDepth,
    })
    if (issue === 'maxNodes' || issue === 'maxDepth') return valueLimitMessage(what, issue, config)
    return undefined
  }

  const dispatch = (call: WorkerCall): void => {
    let pending: Promise<JsonValue>
    const refused = argumentsIssue(call)
    try {
      pending = refused === undefined ? callHost(call) : Promise.reject({ message: refused })
    } catch (error) {
      pending = Promise.reject(error)
    }
    replies.expect()
    pending.then(
      (value) => {
        if (!run.settled) replies.value(call.id, call.name, value)
      },
      (error: unknown) => {
        if (!run.settled) replies.error(call.id, call.name, error)
      },
    )
  }

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
  function takeCalls(): void {
    if (callSlot === undefined) return
    while (!run.settled) {
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
    // A batch written before this message was posted goes first; one written after it, next.
    takeCalls()
    if (run.settled) return
    received += 1
    onParsed(parseWorkerMessage(raw, cursor, config.maxLogLines))
    takeCalls()
  }

  function onParsed(parsed: ParsedWorkerMessage): void {
    if (!parsed.ok) {
      if (parsed.unreadable) failUnreadable(parsed.reason)
      else run.fail('invalid-output', `protocol violation: ${parsed.reason}`)
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
      case 'reads':
        onReads(message.text)
        return
      case 'done':
        // The worker exits in the same turn it posts its completion (see RunDriver.settle).
        run.complete(message.status, message.payload)
        return
      case 'ready':
        run.fail('invalid-output', 'protocol violation: unexpected ready message')
        return
    }
  }
  /**
   * A message the worker could clone but the host cannot deserialize (binding arguments nested
   * thousands of levels deep overflow the host's deserializer): the call it carried is lost, so
   * the run cannot go on. The program's own values caused it, hence `exception`.
   */
  /** A resumable run's reads go to its ledger; a batch that is not a JSON array breaks the protocol. */
  function onReads(text: string): void {
    if (host.reads === undefined) return
    let values: unknown
    try {
      values = JSON.parse(text)
    } catch {}
    if (!Array.isArray(values)) run.fail('invalid-output', 'protocol violation: unreadable reads')
    else host.reads.record(values as JsonValue[])
  }
  function onMessageError(): void {
    failUnreadable('for example, tool arguments nested too deeply')
  }
  function failUnreadable(reason: string): void {
    run.fail('exception', `a message from the program could not be read on the host (${reason})`)
  }

  const start = runMessage(input.source, input.toolNames, config)
  // A resumed run answers its first clock and random reads from the suspended run's (SPEC §13.3).
  const outcome = run.start(
    host.reads === undefined || host.reads.replay.length === 0
      ? start
      : { ...start, reads: JSON.stringify(host.reads.replay) },
  )
  if (spin === undefined) return outcome
  return outcome.finally(() => spin.end())
}
