import { ToolFailedError } from '../errors'
import type { AdditionalContext, ToolExecutionResult } from '../types'
import { notify } from './notify'
import { failureFromThrow, failureOf, freezeContent, withContent } from './results'
import type { ToolCall } from './tool-call'

function attachContexts(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  const decided = call.decisionContexts
  const deferred = call.blocked ? undefined : call.deferred
  if ((deferred === undefined || deferred.length === 0) && decided === undefined) return result
  const contexts: AdditionalContext[] = deferred === undefined ? [] : [...deferred]
  if (decided !== undefined) contexts.push(...decided)
  if (contexts.length === 0) return result
  return Object.freeze({ ...result, additionalContexts: Object.freeze(contexts) })
}

/**
 * The tool's `finalizeContent`, unless the result was replaced after the body started (a
 * wrapper's own result, the abort rule, a post-execute change): then the content stays what the
 * pipeline rendered from the final value (or the listener's own content), because a finalizer
 * typically shows side data the body left (an MCP server's content blocks) and would put back
 * exactly what a redacting listener removed.
 */
function finalizeContent(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  const finalize = call.finalize
  if (finalize === undefined || call.replacedAfterBody) return result
  let replaced: unknown
  try {
    replaced = finalize.call(call.tool?.definition, call.execution, result)
  } catch (error) {
    return attachContexts(call, failureFromThrow(error, ToolFailedError, 'finalizeContent failed: '))
  }
  if (replaced === undefined) return result
  const content = freezeContent(replaced)
  if (typeof content === 'string') {
    const failed = new ToolFailedError(`finalizeContent returned invalid content: ${content}`)
    return attachContexts(call, failureOf(failed))
  }
  return withContent(result, content)
}

/**
 * Steps 10–11: attach contexts (tool-deferred before decision contexts; block keeps only the
 * decision's), run `finalizeContent` at most once (not after a replacement), cut the content to the result budget
 * (when one is configured), freeze the authoritative result and notify
 * the observe-only `tools/result` listeners. A throwing listener is reported, never propagated.
 * Asynchronous only while a cut result's full text is written to the `ToolStateStore`.
 */
export function publishResult(call: ToolCall): ToolExecutionResult | Promise<ToolExecutionResult> {
  // Published already: the grace bound of a disposal gave the caller `ABORTED` before the
  // pipeline unwound; what it produced since is discarded.
  if (call.published !== undefined) return call.published
  // A disposal ended the call: `ABORTED`, whatever the stages in flight produced.
  if (call.ended !== undefined) return publish(call, failureOf(call.ended))
  const finalized = finalizeContent(call, attachContexts(call, call.result!))
  const budget = call.runtime.budget
  if (budget === undefined) return publish(call, finalized)
  const budgeted = budget.apply(call.execution, finalized)
  return budgeted instanceof Promise
    ? budgeted.then((result) => publish(call, result))
    : publish(call, budgeted)
}

function publish(call: ToolCall, result: ToolExecutionResult): ToolExecutionResult {
  // The grace bound may have passed while the store kept the text: the `ABORTED` result stands.
  if (call.published !== undefined) return call.published
  call.published = result
  notify(call, 'tools/result', result)
  return result
}
