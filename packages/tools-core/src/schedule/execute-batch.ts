import { type LinkedSignal, linkSignals } from '../link-signals'
import { assertInput, prepareCall } from '../pipeline/prepare-call'
import { publishResult } from '../pipeline/publish-result'
import { runStages, StageIndex } from '../pipeline/stage-list'
import type { PipelineRuntime, ToolCall } from '../pipeline/tool-call'
import type { ExecuteBatchOptions, ToolExecutionInput, ToolExecutionResult } from '../types'
import { CallScheduler, type ScheduledJob } from './call-scheduler'
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

function checkOptions(inputs: readonly ToolExecutionInput[], options: ExecuteBatchOptions): number {
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
  return maxParallel
}

/** A batch call waiting for its turn in the scheduler; `start` is its turn coming. */
interface BatchJob extends ScheduledJob {
  start: (() => void) | undefined
}

/**
 * A model turn's calls through the stage list, with the {@link CallScheduler} holding the body
 * slots. The batch's own ordering around it: preparation and policy run in model order (the
 * next call is prepared only once this one is dispatched); an `exclusive` call first waits
 * until every earlier call is published, and is itself published before anything later starts
 * its policy; post-execute and publication run in model order. Resolves with the results in
 * input order, after every started body has settled.
 */
export async function executeBatch(
  runtime: PipelineRuntime,
  inputs: readonly ToolExecutionInput[],
  options: ExecuteBatchOptions = {},
): Promise<ToolExecutionResult[]> {
  const maxParallel = checkOptions(inputs, options)
  const results: ToolExecutionResult[] = new Array(inputs.length)
  const scheduler = new CallScheduler<BatchJob>(maxParallel, (job) => job.start?.())
  let published: Promise<void> = Promise.resolve()
  const publishAfter = (
    call: ToolCall,
    index: number,
    link: LinkedSignal | undefined,
    body?: Promise<unknown>,
  ) => {
    published = published.then(async () => {
      if (body !== undefined && (await body) === 'continue') {
        const post = runStages(call, StageIndex.POST, StageIndex.PUBLISH)
        if (post instanceof Promise) await post
      }
      results[index] = publishResult(call)
      link?.dispose()
    })
    return published
  }

  for (let index = 0; index < inputs.length; index++) {
    const [input, link] = withBatchSignal(inputs[index]!, options.signal)
    const call = prepareCall(runtime, input)
    const prepared = runStages(call, StageIndex.PREPARE, StageIndex.POLICY)
    if ((prepared instanceof Promise ? await prepared : prepared) === 'settled') {
      publishAfter(call, index, link)
      continue
    }
    const job: BatchJob = {
      exclusive: classify(call.tool!, call.execution.arguments) === 'exclusive',
      start: undefined,
    }
    if (job.exclusive) await published
    if (scheduler.wouldStart(job)) scheduler.submit(job)
    else
      await new Promise<void>((resolve) => {
        job.start = resolve
        scheduler.submit(job)
      })
    const policy = runStages(call, StageIndex.POLICY, StageIndex.DISPATCH)
    if ((policy instanceof Promise ? await policy : policy) === 'settled') {
      scheduler.finish(job)
      publishAfter(call, index, link)
      continue
    }
    const body = Promise.resolve(runStages(call, StageIndex.DISPATCH, StageIndex.POST))
    // The slot frees when the body settles; post-execute and publication wait their turn.
    void body.then(() => scheduler.finish(job))
    const publication = publishAfter(call, index, link, body)
    if (job.exclusive) await publication
  }
  await published
  return results
}
