import type { ToolExecutionInput, ToolExecutionResult } from '../types'
import { prepareCall } from './prepare-call'
import { publishResult } from './publish-result'
import { runStages, StageIndex } from './stage-list'
import type { PipelineRuntime } from './tool-call'

/** One call straight through the stage list: prepare, every stage until one settles, publish. */
export async function executeCall(
  runtime: PipelineRuntime,
  input: ToolExecutionInput,
): Promise<ToolExecutionResult> {
  const call = prepareCall(runtime, input)
  const outcome = runStages(call, StageIndex.PREPARE, StageIndex.PUBLISH)
  if (outcome instanceof Promise) await outcome
  return publishResult(call)
}
