import type { ToolExecutionInput, ToolExecutionResult } from '../types'
import { prepareCall } from './prepare-call'
import { publishResult } from './publish-result'
import { runStages, StageIndex } from './stage-list'
import type { PipelineRuntime } from './tool-call'

/**
 * One call straight through the stage list: prepare, every stage until one settles, publish.
 * A call whose stages all ran synchronously is published before this returns, so it costs one
 * resolved promise and no microtask hop per stage. Throws (a `TypeError`) only for a malformed
 * input; every other failure is a result. An asynchronous call is followed by the runtime's
 * lifetimes (`owner` is the caller's fiber), so a disposal ends it within the grace bound.
 */
export function executeCall(
  runtime: PipelineRuntime,
  input: ToolExecutionInput,
  owner?: object,
): Promise<ToolExecutionResult> {
  const call = prepareCall(runtime, input)
  call.owner = owner
  const lifetimes = runtime.lifetimes
  lifetimes?.add(call)
  const outcome = runStages(call, StageIndex.PREPARE, StageIndex.PUBLISH)
  if (!(outcome instanceof Promise)) {
    const published = publishResult(call)
    if (!(published instanceof Promise)) {
      lifetimes?.delete(call)
      return Promise.resolve(published)
    }
    return lifetimes === undefined ? published : lifetimes.follow(call, published)
  }
  const pipeline = outcome.then(() => publishResult(call))
  return lifetimes === undefined ? pipeline : lifetimes.follow(call, pipeline)
}
