import { snapshotJson } from '@dsh/tools-schema'
import { DeniedError, PostPolicyError } from '../errors'
import { listenersFor, runWaterfall } from '../internal/listeners'
import type { AdditionalContext, PostToolDecision } from '../types'
import { normalizeOutput } from './normalize-output'
import { notifyStage } from './notify'
import { failureFromThrow, failureOf, freezeContent, messageOf, withContent } from './results'
import type { ToolCall } from './tool-call'

const ACCEPT: PostToolDecision = Object.freeze({ kind: 'accept' })
const accept = (): Promise<PostToolDecision> => Promise.resolve(ACCEPT)

function policyFailure(call: ToolCall, message: string): void {
  call.result = failureOf(new PostPolicyError(message))
}

function readContexts(value: unknown): readonly AdditionalContext[] | string {
  if (value === undefined) return []
  if (!Array.isArray(value)) return '`additionalContexts` must be an array'
  const out: AdditionalContext[] = []
  for (const item of value as unknown[]) {
    const context = item as Partial<AdditionalContext> | null
    if (typeof context !== 'object' || context === null) return 'each additional context must be an object'
    if (typeof context.source !== 'string' || typeof context.text !== 'string') {
      return 'each additional context needs string `source` and `text`'
    }
    try {
      out.push(
        context.meta === undefined
          ? Object.freeze({ source: context.source, text: context.text })
          : Object.freeze({ source: context.source, text: context.text, meta: snapshotJson(context.meta) }),
      )
    } catch (error) {
      return `additional context meta is not lossless JSON: ${messageOf(error)}`
    }
  }
  return out
}

async function applyDecision(call: ToolCall, decision: unknown): Promise<void> {
  const d = decision as Record<string, unknown> | null | undefined
  const kind = d?.kind
  if (kind !== 'accept' && kind !== 'block') {
    policyFailure(call, 'tools/post-execute listener returned an invalid decision')
    return
  }
  const contexts = readContexts(d!.additionalContexts)
  if (typeof contexts === 'string') {
    policyFailure(call, `tools/post-execute decision is invalid: ${contexts}`)
    return
  }
  if (contexts.length > 0) call.decisionContexts = contexts
  if (kind === 'block') {
    if (typeof d!.feedback !== 'string') {
      policyFailure(call, 'tools/post-execute block decision needs a string `feedback`')
      return
    }
    call.blocked = true
    call.result = failureOf(new DeniedError(d!.feedback || 'tool result blocked'))
    return
  }
  const hasContent = d!.content !== undefined
  const hasValue = d!.value !== undefined
  if (hasContent && hasValue) {
    policyFailure(call, 'tools/post-execute may replace content or value, never both')
  } else if (hasContent) {
    const content = freezeContent(d!.content)
    if (typeof content === 'string')
      policyFailure(call, `tools/post-execute replaced content is invalid: ${content}`)
    else call.result = withContent(call.result!, content)
  } else if (hasValue) {
    if (call.result!.isError)
      policyFailure(call, 'tools/post-execute cannot replace the value of a failed result')
    else call.result = await normalizeOutput(call.tool!, call.execution, d!.value, call.runtime.valueLimits)
  }
}

/**
 * Step 9: the `tools/post-execute` waterfall over a dispatched result. Accept may replace
 * content (value and meta kept) or value (revalidated and re-rendered) and add contexts;
 * block turns the result into a valueless `DENIED` failure and drops tool-deferred contexts.
 */
export async function runPostExecute(call: ToolCall): Promise<void> {
  const listeners = listenersFor(call.runtime.hooks, 'tools/post-execute', call.execution.agent)
  if (listeners === undefined) return
  const current = call.result!
  const view =
    call.deferred.length === 0
      ? current
      : Object.freeze({ ...current, additionalContexts: Object.freeze([...call.deferred]) })
  let decision: PostToolDecision
  try {
    decision = await runWaterfall(listeners, [call.execution, view], accept, () => call.ended !== undefined)
  } catch (error) {
    call.result = failureFromThrow(error, PostPolicyError, 'tools/post-execute listener failed: ')
    return
  }
  await applyDecision(call, decision)
  const kind = (decision as { kind?: unknown } | null | undefined)?.kind
  if (kind === 'accept' || kind === 'block') notifyStage(call, { stage: 'post-decision', decision: kind })
}
