import { type LinkedSignal, linkSignals } from '../link-signals'
import { dispatchPhase, listened, policyPhase, postPhase } from '../pipeline/execute-call'
import { assertInput, prepareCall } from '../pipeline/prepare-call'
import { publishResult } from '../pipeline/publish-result'
import { abortedBeforeDispatch } from '../pipeline/results'
import { runGuards } from '../pipeline/run-policy'
import type { PipelineRuntime, ToolCall } from '../pipeline/tool-call'
import type { ExecuteBatchOptions, ToolExecutionInput, ToolExecutionResult } from '../types'
import { classify } from './execution-mode'

/** The input with the batch signal linked into its own; the link is disposed once it publishes. */
function withBatchSignal(
  input: ToolExecutionInput,
  signal: AbortSignal | undefined,
): [ToolExecutionInput, LinkedSignal | undefined] {
  if (signal === undefined || signal === input.signal) return [input, undefined]
  const linked = linkSignals(input.signal, signal)
  return [{ ...input, signal: linked.signal }, linked]
}

/**
 * Run a model turn's calls as a rolling pool. Preparation and policy (steps 1–6) run in model
 * order; consecutive `parallel` bodies overlap up to `maxParallel`; an `exclusive` call waits
 * until every earlier call is published, runs alone, and is published before anything later
 * starts its policy; post-execute, finalization and `tools/result` (steps 9–11) run in model
 * order. Resolves with the results in input order, after every started body has settled.
 */
export async function executeBatch(
  runtime: PipelineRuntime,
  inputs: readonly ToolExecutionInput[],
  options: ExecuteBatchOptions = {},
): Promise<ToolExecutionResult[]> {
  if (!Array.isArray(inputs)) throw new TypeError('executeBatch() takes an array of inputs')
  const maxParallel = options.maxParallel ?? 10
  if (!Number.isInteger(maxParallel) || maxParallel < 1) {
    throw new RangeError('executeBatch(): `maxParallel` must be an integer ≥ 1')
  }
  const signal = options.signal
  if (
    signal !== undefined &&
    (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean')
  ) {
    throw new TypeError('executeBatch(): `signal` must be an AbortSignal')
  }
  for (const input of inputs) assertInput(input)

  const results: ToolExecutionResult[] = new Array(inputs.length)
  // Parallel bodies in flight, and the loop's wake-up for when one of them frees its slot.
  let running = 0
  let wake: (() => void) | undefined
  const slotFree = () =>
    new Promise<void>((resolve) => {
      wake = resolve
    })
  let published: Promise<void> = Promise.resolve()
  const links: (LinkedSignal | undefined)[] = new Array(inputs.length)
  const publishAfter = (call: ToolCall, index: number, body?: Promise<void>): Promise<void> => {
    published = published.then(async () => {
      if (body !== undefined) {
        await body
        await postPhase(call)
      }
      results[index] = publishResult(call)
      links[index]?.dispose()
    })
    return published
  }

  for (let index = 0; index < inputs.length; index++) {
    const [input, link] = withBatchSignal(inputs[index]!, signal)
    links[index] = link
    const call = prepareCall(runtime, input)
    if (call.result !== undefined) {
      publishAfter(call, index)
      continue
    }
    const exclusive = classify(call.tool!, call.execution.arguments) === 'exclusive'
    if (exclusive) await published
    else while (running >= maxParallel) await slotFree()
    if (call.callerSignal.aborted) {
      // aborted while it waited for its turn: like a pre-aborted call, no policy runs
      call.result = abortedBeforeDispatch()
      publishAfter(call, index)
      continue
    }
    if (listened(runtime, 'tools/pre-execute')) await policyPhase(call)
    else runGuards(call)
    if (call.result !== undefined) {
      publishAfter(call, index)
      continue
    }
    const body = dispatchPhase(call)
    if (exclusive) {
      await publishAfter(call, index, body)
    } else {
      running++
      void body.then(() => {
        running--
        const resume = wake
        wake = undefined
        resume?.()
      })
      publishAfter(call, index, body)
    }
  }
  await published
  return results
}
