import type { ApprovalDecision, ApprovalState, ApprovalTicketData, StoredRecord } from '@dsh/tools-core'

/**
 * An approval as `ctx.approvals.list/get` and the events show it: what a person reviews — the
 * stored ticket's fields (see `ApprovalTicketData`) without its layout version, the decision's
 * signature and the stored result, plus its status.
 */
export interface ApprovalView extends Omit<ApprovalTicketData, 'v' | 'decision' | 'result'> {
  /** `pending`, `approved`, `denied`, `running` (a process resumed it) or `done`. */
  readonly status: ApprovalState
  /** True once `expiresAt` passed while it was still `pending` or `approved`. */
  readonly expired: boolean
  readonly decision?: Omit<ApprovalDecision, 'signature'>
}

/** The view of a stored record (signature and stored result left out). */
export function viewOf(record: StoredRecord, data: ApprovalTicketData, now: number): ApprovalView {
  const status = record.state as ApprovalState
  const view: Record<string, unknown> = {
    ticket: data.ticket,
    agent: data.agent,
    tool: data.tool,
    callId: data.callId,
    arguments: data.arguments,
    argumentsHash: data.argumentsHash,
    fingerprint: data.fingerprint,
    status,
    expired: (status === 'pending' || status === 'approved') && now >= data.expiresAt,
    createdAt: data.createdAt,
    expiresAt: data.expiresAt,
  }
  if (data.parentCallId !== undefined) view['parentCallId'] = data.parentCallId
  if (data.reason !== undefined) view['reason'] = data.reason
  if (data.decision !== undefined) {
    const { approve, by, note, at } = data.decision
    view['decision'] = Object.freeze(note === undefined ? { approve, by, at } : { approve, by, note, at })
  }
  return Object.freeze(view) as unknown as ApprovalView
}
