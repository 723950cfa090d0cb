import { ToolErrorCode } from '../errors'
import { listenersFor, runWaterfall } from '../internal/listeners'
import type { PreToolDecision } from '../types'
import { codedFailure, failureFromThrow, messageOf } from './results'
import type { ToolCall } from './tool-call'

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })
const allow = (): Promise<PreToolDecision> => Promise.resolve(ALLOW)

function deny(call: ToolCall, message: string): void {
  call.result = codedFailure(ToolErrorCode.DENIED, 'DeniedError', message)
}

async function askApproval(call: ToolCall, reason: string | undefined): Promise<void> {
  const approval = call.runtime.approval()
  if (approval === undefined) {
    deny(
      call,
      reason
        ? `approval required (${reason}) but no approval service is available`
        : 'approval required but no approval service is available',
    )
    return
  }
  try {
    const answer = await approval.request(call.execution, reason)
    if (answer?.approved === true) return
    deny(
      call,
      typeof answer?.reason === 'string' && answer.reason ? answer.reason : 'tool call was not approved',
    )
  } catch (error) {
    deny(call, `approval request failed: ${messageOf(error)}`)
  }
}

/** Step 5: the `tools/pre-execute` gate (allow / deny / ask → approval seam, ask → deny without one). */
async function runGate(call: ToolCall): Promise<void> {
  const listeners = listenersFor(call.runtime.hooks, 'tools/pre-execute', call.execution.agent)
  if (listeners === undefined) return
  let decision: PreToolDecision
  try {
    decision = await runWaterfall(listeners, [call.execution], allow)
  } catch (error) {
    call.result = failureFromThrow(
      error,
      ToolErrorCode.TOOL_FAILED,
      'ToolFailedError',
      'tools/pre-execute listener failed: ',
    )
    return
  }
  const kind = (decision as { kind?: unknown } | null | undefined)?.kind
  if (kind === 'allow') return
  if (kind === 'deny' && typeof (decision as { reason?: unknown }).reason === 'string') {
    deny(call, (decision as { reason: string }).reason || 'tool call denied')
    return
  }
  if (kind === 'ask') {
    const reason = (decision as { reason?: unknown }).reason
    await askApproval(call, typeof reason === 'string' ? reason : undefined)
    return
  }
  call.result = codedFailure(
    ToolErrorCode.TOOL_FAILED,
    'ToolFailedError',
    'tools/pre-execute listener returned an invalid decision',
  )
}

/** Step 6: guards in registration order; the first reason denies, and nothing later undoes it. */
export function runGuards(call: ToolCall): void {
  const { execution } = call
  for (const entry of call.runtime.registry.guards) {
    if (entry.agent !== undefined && entry.agent !== execution.agent) continue
    let verdict: unknown
    try {
      verdict = entry.guard(execution)
    } catch (error) {
      deny(call, `guard failed: ${messageOf(error)}`)
      return
    }
    if (verdict === undefined) continue
    deny(
      call,
      typeof verdict === 'string'
        ? verdict || 'tool call denied by a guard'
        : 'guard returned a non-string verdict',
    )
    return
  }
}

/** Steps 5–6. Leaves `call.result` unset when the call may be dispatched. */
export async function runPolicy(call: ToolCall): Promise<void> {
  await runGate(call)
  if (call.result === undefined) runGuards(call)
}
