import type { ToolExecutionInput, ToolExecutionResult } from '../types'
import { prepareCall } from './prepare-call'
import { publishResult } from './publish-result'
import { runStages, StageIndex } from './stage-list'
import type { PipelineRuntime } from './tool-call'

/**
 * One call straight through the stage list: prepare, every stage until one settles, publish.
 * A call whose stages all ran synchronously is published before this returns, so it costs one
 * resolved promise and no microtask hop per stage. Throws (a `TypeError`) only for a malformed
 * input; every other failure is a result.
 */
export function executeCall(
  runtime: PipelineRuntime,
  input: ToolExecutionInput,
): Promise<ToolExecutionResult> {
  const call = prepareCall(runtime, input)
  const outcome = runStages(call, StageIndex.PREPARE, StageIndex.PUBLISH)
  if (outcome instanceof Promise) return outcome.then(() => publishResult(call))
  return Promise.resolve(publishResult(call))
}
