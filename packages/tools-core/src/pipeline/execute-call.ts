import { ToolErrorCode } from '../errors'
import type { ToolExecutionInput, ToolExecutionResult } from '../types'
import { dispatchCall } from './dispatch-call'
import { parseArguments } from './parse-arguments'
import { runPostExecute } from './post-execute'
import { prepareCall } from './prepare-call'
import { publishResult } from './publish-result'
import { failureFromThrow } from './results'
import { runGuards, runPolicy } from './run-policy'
import type { PipelineRuntime, ToolCall } from './tool-call'

/** Steps 5–6 for a prepared call; never throws. Leaves `call.result` unset when it may dispatch. */
export async function policyPhase(call: ToolCall): Promise<void> {
  if (call.result !== undefined) return
  try {
    await runPolicy(call)
  } catch (error) {
    call.result = failureFromThrow(error, ToolErrorCode.TOOL_FAILED, 'ToolFailedError', 'policy failed: ')
  }
}

/** Steps 7–9 for a call that passed policy; never throws and never settles before its bodies. */
export async function dispatchPhase(call: ToolCall): Promise<void> {
  try {
    await dispatchCall(call)
  } catch (error) {
    call.dispatched = true
    call.result = failureFromThrow(error, ToolErrorCode.TOOL_FAILED, 'ToolFailedError', 'dispatch failed: ')
    while (call.pending !== undefined && call.pending.size > 0) await Promise.allSettled([...call.pending])
  }
}

/** Step 9 for a dispatched call; never throws. */
export async function postPhase(call: ToolCall): Promise<void> {
  try {
    await runPostExecute(call)
  } catch (error) {
    call.result = failureFromThrow(
      error,
      ToolErrorCode.POST_POLICY_FAILED,
      'PostPolicyError',
      'post-execute failed: ',
    )
  }
}

export function listened(runtime: PipelineRuntime, event: string): boolean {
  const hooks = runtime.hooks[event]
  return hooks !== undefined && hooks.length > 0
}

/**
 * The whole pipeline for one call: steps 1–4, 5–6, 7–8, 9, 10–11. Phases nobody listens to
 * are skipped without a dispatch (guards always run).
 */
export async function executeCall(
  runtime: PipelineRuntime,
  input: ToolExecutionInput,
): Promise<ToolExecutionResult> {
  const call = prepareCall(runtime, input)
  const parsing = parseArguments(call)
  if (parsing !== undefined) await parsing
  if (call.result === undefined) {
    if (listened(runtime, 'tools/pre-execute')) await policyPhase(call)
    else runGuards(call)
    if (call.result === undefined) {
      await dispatchPhase(call)
      if (listened(runtime, 'tools/post-execute')) await postPhase(call)
    }
  }
  return publishResult(call)
}
