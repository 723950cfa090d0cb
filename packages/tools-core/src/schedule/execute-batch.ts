import type { TrackedBatch } from '../lifetime/call-lifetimes'
import { type LinkedSignal, linkSignals } from '../link-signals'
import { assertInput, prepareCall } from '../pipeline/prepare-call'
import { publishResult } from '../pipeline/publish-result'
import { failureOf } from '../pipeline/results'
import { runStages, StageIndex, type StageOutcome } from '../pipeline/stage-list'
import type { PipelineRuntime, ToolCall } from '../pipeline/tool-call'
import type { ExecuteBatchOptions, ScopeKey, ToolExecutionInput, ToolExecutionResult } from '../types'
import { CallScheduler, type ScheduledJob } from './call-scheduler'
import { classifyValid } from './execution-mode'

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

/** A prepared call waiting in the scheduler for its turn. */
interface BatchJob extends ScheduledJob {
  readonly call: ToolCall
  readonly index: number
  readonly link: LinkedSignal | undefined
  /** Set once the call is past policy: the promise of its publication. */
  publication: Promise<void> | undefined
  /** Wakes the batch loop when the call got past policy later than its submission. */
  wake: (() => void) | undefined
  released: boolean
}

/**
 * A model turn's calls through the stage list, with a {@link CallScheduler} holding the body
 * slots. The batch's own ordering around it: preparation and policy run in model order (the
 * next call is prepared once this one is past policy); an `exclusive` call first waits until
 * every earlier call is published, and is itself published before anything later starts its
 * policy; post-execute and publication run in model order. Resolves with the results in input
 * order, after every started body has settled — or, when a disposal ends the batch (see
 * `CallLifetimes`), with `ABORTED` for every unpublished call at the latest after the grace bound.
 */
export function executeBatch(
  runtime: PipelineRuntime,
  inputs: readonly ToolExecutionInput[],
  options: ExecuteBatchOptions = {},
  owner?: object,
): Promise<ToolExecutionResult[]> {
  const maxParallel = checkOptions(inputs, options)
  const lifetimes = runtime.lifetimes
  const agents = new Set<ScopeKey>()
  for (const input of inputs) if (input.agent !== undefined) agents.add(input.agent)
  const batch: TrackedBatch = {
    owner,
    agents,
    calls: new Set(),
    ended: lifetimes?.disposed,
    force: undefined,
  }
  const results: ToolExecutionResult[] = new Array(inputs.length)
  const prepared: ToolCall[] = []
  const running = runBatch(runtime, inputs, maxParallel, options, batch, results, prepared)
  if (lifetimes === undefined) return running
  const untrack = lifetimes.trackBatch(batch)
  return new Promise<ToolExecutionResult[]>((resolve, reject) => {
    // The grace bound of a disposal passed with the batch still running: what is published
    // stands, every other call is `ABORTED`; the batch's late work is discarded.
    batch.force = () => {
      untrack()
      const ended = batch.ended!
      resolve(inputs.map((_, index) => results[index] ?? prepared[index]?.published ?? failureOf(ended)))
    }
    running.then(
      (done) => {
        untrack()
        resolve(done)
      },
      (error: unknown) => {
        untrack()
        reject(error)
      },
    )
  })
}

/** The batch itself (see {@link executeBatch}); `batch` is how a disposal reaches it. */
async function runBatch(
  runtime: PipelineRuntime,
  inputs: readonly ToolExecutionInput[],
  maxParallel: number,
  options: ExecuteBatchOptions,
  batch: TrackedBatch,
  results: ToolExecutionResult[],
  prepared: ToolCall[],
): Promise<ToolExecutionResult[]> {
  let published: Promise<void> = Promise.resolve()
  const publishAfter = (job: Pick<BatchJob, 'call' | 'index' | 'link'>, body?: Promise<StageOutcome>) => {
    published = published.then(async () => {
      if (body !== undefined && (await body) === 'continue') {
        const post = runStages(job.call, StageIndex.POST, StageIndex.PUBLISH)
        if (post instanceof Promise) await post
      }
      const publication = publishResult(job.call)
      // A promise only while a cut result's text is written to the store: no extra hop otherwise.
      results[job.index] = publication instanceof Promise ? await publication : publication
      job.link?.dispose()
    })
    return published
  }

  const release = (job: BatchJob): void => {
    if (job.released) return
    job.released = true
    scheduler.finish(job)
  }
  const passed = (job: BatchJob, publication: Promise<void>): void => {
    job.publication = publication
    job.wake?.()
  }
  const dispatch = (job: BatchJob, policy: StageOutcome): void => {
    if (policy === 'settled') {
      release(job)
      passed(job, publishAfter(job))
      return
    }
    // The slot frees the moment the body's own promise settles (before its value is
    // normalized), or when the dispatch ends, whichever comes first.
    job.call.onBodySettled = () => release(job)
    const body = Promise.resolve(runStages(job.call, StageIndex.DISPATCH, StageIndex.POST))
    void body.then(() => release(job))
    passed(job, publishAfter(job, body))
  }
  // A job's turn: policy, then its body. Runs synchronously inside the scheduler's `finish`
  // when policy is synchronous, so a freed slot is refilled before anything else runs.
  const scheduler = new CallScheduler<BatchJob>(maxParallel, (job) => {
    const policy = runStages(job.call, StageIndex.POLICY, StageIndex.DISPATCH)
    if (policy instanceof Promise) void policy.then((outcome) => dispatch(job, outcome))
    else dispatch(job, policy)
  })

  for (let index = 0; index < inputs.length; index++) {
    const [input, link] = withBatchSignal(inputs[index]!, options.signal)
    const call = prepareCall(runtime, input)
    call.owner = batch.owner
    // A disposal ended the batch: the calls it had not reached yet end `ABORTED` too.
    call.ended ??= batch.ended
    prepared[index] = call
    batch.calls.add(call)
    const preparing = runStages(call, StageIndex.PREPARE, StageIndex.POLICY)
    if ((preparing instanceof Promise ? await preparing : preparing) === 'settled') {
      publishAfter({ call, index, link })
      continue
    }
    // Preparation validated these frozen arguments against this tool: no second check.
    const exclusive = classifyValid(call.tool!, call.execution.arguments) === 'exclusive'
    if (exclusive) await published
    const job: BatchJob = {
      exclusive,
      call,
      index,
      link,
      publication: undefined,
      wake: undefined,
      released: false,
    }
    // With a free slot and synchronous policy the call is dispatched inside `submit`, and the
    // loop goes straight on to the next call: consecutive bodies start in the same tick.
    scheduler.submit(job)
    if (job.publication === undefined) {
      await new Promise<void>((resolve) => {
        job.wake = resolve
      })
    }
    if (exclusive) await job.publication
  }
  await published
  return results
}
