import type { ApprovalState, ApprovalTicketData, JsonValue, StoredRecord } from '@dsh/tools-core'

/** An approval as `ctx.approvals.list/get` and the events show it: what a person reviews. */
export interface ApprovalView {
  readonly ticket: string
  /** The agent scope key, `''` outside any agent scope. */
  readonly agent: string
  readonly tool: string
  readonly callId: string
  readonly parentCallId?: string
  /** The canonical arguments the call was asked with. */
  readonly arguments: JsonValue
  /** SHA-256 of their canonical JSON (what the decision is signed over). */
  readonly argumentsHash: string
  /** The tool's definition fingerprint when asked. */
  readonly fingerprint: string
  readonly reason?: string
  /** `pending`, `approved`, `denied`, `running` (a process resumed it) or `done`. */
  readonly status: ApprovalState
  /** True once `expiresAt` passed while it was still `pending` or `approved`. */
  readonly expired: boolean
  readonly createdAt: number
  readonly expiresAt: number
  readonly decision?: {
    readonly approve: boolean
    readonly by: string
    readonly note?: string
    readonly at: number
  }
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
