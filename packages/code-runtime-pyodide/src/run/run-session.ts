/**
 * The host side of one run on one fresh Pyodide worker: sends the program, forwards binding
 * calls to `host.call`, streams logs, enforces the budgets, and settles once the program can no
 * longer run: on the worker's completion message (the worker exits in that same turn), or, when
 * the host kills the worker, after its `exit` event.
 */
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import {
  createCallCursor,
  DoneStatus,
  type RunSessionInput as KitRunSessionInput,
  RunDriver,
  runMessage,
  utf8LineCost,
  valueTextIssue,
} from '@dsh/tools-codemode/runtime-kit'
import type { MemoryBudget } from '../memory-budget'
import type { WorkerHandle } from '../pool/worker-handle'
import type { ReplyMessage, WorkerCall } from '../protocol/messages'
import { parseWorkerMessage } from '../protocol/parse-worker-message'
import type { JsonValue, ResolvedPyodideRuntimeConfig } from '../types'
import { CALL_LIMITS } from './call-limits'
import { jsonTextProblem } from './json-text-problem'
import { maxReplyUnits, replyFor } from './reply-for'

/** What one run needs besides its worker; `source` is the body of an async Python function. */
export interface RunSessionInput extends KitRunSessionInput<ResolvedPyodideRuntimeConfig> {
  /** The run's share of `maxMemoryMb` for output and the worker's heap. */
  readonly budget: MemoryBudget
}

/** SIGINT, as Pyodide's interrupt buffer expects it. */
const SIGINT = 2

/**
 * Run a program on `handle` (already booted). Resolves once the outcome is known and no program
 * code can run any more; never rejects. The caller tracks `handle.exited`.
 */
export function runSession(handle: WorkerHandle, input: RunSessionInput): Promise<CodeRunOutcome> {
  const { worker } = handle
  const { host, config, budget } = input
  const cursor = createCallCursor(input.toolNames)
  const maxUnits = maxReplyUnits(config)
  const run = new RunDriver({
    handle,
    host,
    shutdown: input.shutdown,
    // The output and heap caps are the run's parts of maxMemoryMb. The meter admits exactly
    // maxLogLines lines, as the worker's does: a worker that posts one more fails as output-limit.
    limits: {
      ...config,
      maxOutputBytes: budget.outputBytes,
      maxOldGenerationSizeMb: budget.oldGenerationMb,
    },
    // Lines cost their UTF-8 size, at least one byte: the same rule the worker applies.
    lineCost: utf8LineCost,
    onMessage,
    // Stop the interpreter at its next bytecode, so no further call or line leaves it; the kill
    // that follows also ends code that catches KeyboardInterrupt.
    onTimeout: () => Atomics.store(handle.interrupt, 0, SIGINT),
  })

  let outstanding = 0
  /**
   * Parse a call's arguments (already scanned) and hand them to the host. Text that is not JSON
   * is a protocol violation (the kernel encodes every call's arguments): `undefined`, the run
   * has failed.
   */
  const callHost = (call: WorkerCall): Promise<JsonValue> | undefined => {
    let args: JsonValue
    try {
      args = JSON.parse(call.argsText) as JsonValue
    } catch {
      run.fail('invalid-output', `protocol violation: the arguments of call ${call.id} are not JSON text`)
      return undefined
    }
    return host.call(call.name, args)
  }
  const dispatch = (call: WorkerCall): void => {
    if (call.argsText.length > CALL_LIMITS.maxArgumentChars) {
      run.fail('invalid-output', `protocol violation: the arguments of call ${call.id} exceed the size cap`)
      return
    }
    if (outstanding >= CALL_LIMITS.maxOutstandingCalls) {
      const message = `too many tool calls outstanding (${CALL_LIMITS.maxOutstandingCalls}); await some first`
      worker.postMessage({ k: 'res', i: call.id, ok: false, a: call.name, b: message } satisfies ReplyMessage)
      return
    }
    // The host's own scan of the text, before anything parses it: the worker's is not a boundary.
    const tooLarge = valueTextIssue(call.argsText, `arguments for ${call.name}`, config)
    if (tooLarge !== undefined) {
      worker.postMessage({
        k: 'res',
        i: call.id,
        ok: false,
        a: call.name,
        b: tooLarge,
      } satisfies ReplyMessage)
      return
    }
    outstanding += 1
    let pending: Promise<JsonValue> | undefined
    try {
      pending = callHost(call)
    } catch (error) {
      pending = Promise.reject(error)
    }
    if (pending === undefined) return
    void Promise.allSettled([pending]).then(([result]) => {
      outstanding -= 1
      if (!run.settled && result !== undefined) worker.postMessage(replyFor(call, result, maxUnits))
    })
  }

  function onMessage(raw: unknown): void {
    const parsed = parseWorkerMessage(raw, cursor)
    if (!parsed.ok) {
      run.fail('invalid-output', `protocol violation: ${parsed.reason}`)
      return
    }
    const message = parsed.message
    switch (message.kind) {
      case 'log':
        run.log(message.line)
        return
      case 'call':
        dispatch(message.call)
        return
      case 'reads': {
        // A resumable run's reads go to its ledger (SPEC §13.3); text that is not an array breaks the protocol.
        if (host.reads === undefined) return
        let values: unknown
        try {
          values = JSON.parse(message.text)
        } catch {}
        if (Array.isArray(values)) host.reads.record(values as JsonValue[])
        else run.fail('invalid-output', 'protocol violation: unreadable reads')
        return
      }
      case 'done': {
        // The worker's own check is not a boundary: the program can rebind what it reads.
        const problem =
          message.status === DoneStatus.OK && message.payload !== undefined
            ? jsonTextProblem(message.payload, CALL_LIMITS.maxJsonDepth)
            : undefined
        if (problem === undefined) run.complete(message.status, message.payload)
        else run.fail('invalid-output', `the result is not JSON: ${problem}`, true)
        return
      }
      case 'ready':
      case 'boot-failed':
        run.fail('invalid-output', `protocol violation: unexpected ${message.kind} message`)
        return
    }
  }

  const start = runMessage(input.source, input.toolNames, { ...config, maxOutputBytes: budget.outputBytes })
  // A resumed run answers its first clock and random reads from the suspended run's.
  return run.start(
    host.reads === undefined || host.reads.replay.length === 0
      ? start
      : { ...start, reads: JSON.stringify(host.reads.replay) },
  )
}
