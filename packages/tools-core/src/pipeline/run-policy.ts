import { isToolsError } from '@dsh/tools-schema'
import { pendingFailure } from '../durable/pending-result'
import { toolFingerprint } from '../durable/tool-fingerprint'
import { DeniedError, ToolErrorCode, ToolFailedError } from '../errors'
import { listenersFor, runWaterfall } from '../internal/listeners'
import type { ApprovalAnswer, ApprovalRequestDetails, PreToolDecision } from '../types'
import { notifyStage } from './notify'
import { failureFromThrow, failureOf, messageOf } from './results'
import type { ToolCall } from './tool-call'

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })
const allow = (): Promise<PreToolDecision> => Promise.resolve(ALLOW)

function deny(call: ToolCall, message: string): void {
  call.result = failureOf(new DeniedError(message))
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
  notifyStage(call, reason === undefined ? { stage: 'approval-start' } : { stage: 'approval-start', reason })
  try {
    const answer = await approval.request(call.execution, reason, requestDetails(call))
    if (isSuspend(answer)) {
      suspend(call, answer.suspend, reason)
      return
    }
    if (answer?.approved === true) {
      notifyStage(call, { stage: 'approval-end', approved: true })
      return
    }
    deny(
      call,
      typeof answer?.reason === 'string' && answer.reason ? answer.reason : 'tool call was not approved',
    )
  } catch (error) {
    // Fail closed on an unreachable store, under its own code: no guard and no body run.
    if (isToolsError(error) && error.code === ToolErrorCode.STORE_UNAVAILABLE) call.result = failureOf(error)
    else deny(call, `approval request failed: ${messageOf(error)}`)
  }
  notifyStage(call, { stage: 'approval-end', approved: false, reason: denialMessage(call) })
}

/** What a durable service persists beside the execution: the fingerprint it binds the approval to. */
function requestDetails(call: ToolCall): ApprovalRequestDetails {
  const definition = call.tool!.definition
  const parent = call.execution.parent
  const parentCallId = parent === undefined ? undefined : call.runtime.lifetimes?.callIdOf(parent)
  const details: { -readonly [K in keyof ApprovalRequestDetails]: ApprovalRequestDetails[K] } = {
    fingerprint: toolFingerprint(definition),
  }
  if (definition.annotations !== undefined) details.annotations = definition.annotations
  if (parentCallId !== undefined) details.parentCallId = parentCallId
  return details
}

function isSuspend(
  answer: ApprovalAnswer | undefined,
): answer is Extract<ApprovalAnswer, { suspend: unknown }> {
  const suspended = (answer as { suspend?: { ticket?: unknown; expiresAt?: unknown } } | undefined)?.suspend
  return typeof suspended?.ticket === 'string' && typeof suspended.expiresAt === 'number'
}

/** The service persisted the call: it ends `APPROVAL_PENDING`, and no guard and no body run. */
function suspend(
  call: ToolCall,
  ticket: { ticket: string; expiresAt: number },
  reason: string | undefined,
): void {
  const { execution } = call
  call.result = pendingFailure({
    ticket: ticket.ticket,
    tool: execution.name,
    agent: execution.agent ?? '',
    ...(reason === undefined ? {} : { reason }),
    expiresAt: ticket.expiresAt,
  })
  notifyStage(call, { stage: 'approval-end', approved: false, reason: 'suspended: waiting for approval' })
}

function denialMessage(call: ToolCall): string {
  const result = call.result
  return result?.isError === true ? result.error.message : 'tool call denied'
}

/** Step 5: the `tools/pre-execute` gate (allow / deny / ask → approval seam, ask → deny without one). */
export async function runGate(call: ToolCall): Promise<void> {
  const listeners = listenersFor(call.runtime.hooks, 'tools/pre-execute', call.execution.agent)
  if (listeners === undefined) return
  let decision: PreToolDecision
  try {
    decision = await runWaterfall(listeners, [call.execution], allow, () => call.ended !== undefined)
  } catch (error) {
    call.result = failureFromThrow(error, ToolFailedError, 'tools/pre-execute listener failed: ')
    return
  }
  const kind = (decision as { kind?: unknown } | null | undefined)?.kind
  if (kind === 'allow') {
    notifyStage(call, { stage: 'decision', source: 'pre-execute', decision: 'allow' })
    return
  }
  if (kind === 'deny' && typeof (decision as { reason?: unknown }).reason === 'string') {
    deny(call, (decision as { reason: string }).reason || 'tool call denied')
    notifyStage(call, {
      stage: 'decision',
      source: 'pre-execute',
      decision: 'deny',
      reason: denialMessage(call),
    })
    return
  }
  if (kind === 'ask') {
    const raw = (decision as { reason?: unknown }).reason
    const reason = typeof raw === 'string' ? raw : undefined
    notifyStage(
      call,
      reason === undefined
        ? { stage: 'decision', source: 'pre-execute', decision: 'ask' }
        : { stage: 'decision', source: 'pre-execute', decision: 'ask', reason },
    )
    await askApproval(call, reason)
    return
  }
  call.result = failureOf(new ToolFailedError('tools/pre-execute listener returned an invalid decision'))
}

function denyByGuard(call: ToolCall, message: string): void {
  deny(call, message)
  notifyStage(call, { stage: 'decision', source: 'guard', decision: 'deny', reason: message })
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
      denyByGuard(call, `guard failed: ${messageOf(error)}`)
      return
    }
    if (verdict === undefined) continue
    denyByGuard(
      call,
      typeof verdict === 'string'
        ? verdict || 'tool call denied by a guard'
        : 'guard returned a non-string verdict',
    )
    return
  }
}
