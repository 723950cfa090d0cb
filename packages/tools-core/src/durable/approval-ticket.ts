/**
 * The durable approval record (SPEC §13.2) as tools-core reads it on resume and a durable
 * approval service (`@dsh/tool-approvals`) writes it: the asked call, bound to its canonical
 * arguments' hash and its tool's fingerprint, the signed decision and, once resumed, the final
 * result. The record's state walks `pending → approved|denied`, `approved → running` (a lease)
 * and `running → done`.
 */
import type { JsonValue } from '@dsh/tools-schema'
import type { ToolPendingApproval } from '../types'

export type { ToolPendingApproval }

/** The states of an approval record, in the store's `state` column. */
export const ApprovalState = Object.freeze({
  PENDING: 'pending',
  APPROVED: 'approved',
  DENIED: 'denied',
  RUNNING: 'running',
  DONE: 'done',
} as const)

/** One of the {@link ApprovalState} values. */
export type ApprovalState = (typeof ApprovalState)[keyof typeof ApprovalState]

/** A person's decision, signed (HMAC-SHA256) by the approval service. */
export interface ApprovalDecision {
  readonly approve: boolean
  /** Who decided (free text the host supplies: a user id, an e-mail). */
  readonly by: string
  /** The reviewer's note; a denial's note is the `DENIED` message. */
  readonly note?: string
  /** When (epoch ms). */
  readonly at: number
  /** Hex HMAC over ticket, decision, argument hash, fingerprint, agent and expiry. */
  readonly signature: string
}

/** The JSON `data` of an approval record. */
export interface ApprovalTicketData {
  /** Record layout version (1). */
  readonly v: 1
  readonly ticket: string
  /** The agent scope key, `''` outside any agent scope. */
  readonly agent: string
  readonly tool: string
  readonly callId: string
  readonly parentCallId?: string
  /** The canonical arguments the call was asked with. */
  readonly arguments: JsonValue
  /** SHA-256 of their canonical JSON. */
  readonly argumentsHash: string
  /** The tool's definition fingerprint when asked (`toolFingerprint`). */
  readonly fingerprint: string
  readonly reason?: string
  readonly createdAt: number
  /** Past this (epoch ms) an undecided or unresumed approval is `APPROVAL_EXPIRED`. */
  readonly expiresAt: number
  readonly decision?: ApprovalDecision
  /** The final result (a stored `ToolExecutionResult`), once `done`. */
  readonly result?: JsonValue
}

const PREFIX = 'apr'

/**
 * A fresh ticket for a call of `agent`: `apr.<agent, base64url>.<144 random bits, base64url>`.
 * The agent is part of the ticket because records are addressed per agent; the random part is
 * what makes it unguessable.
 */
export function mintTicket(agent: string): string {
  return `${PREFIX}.${Buffer.from(agent, 'utf8').toString('base64url')}.${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')}`
}

const TICKET = /^apr\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22,})$/

/** The agent a ticket belongs to, or `undefined` when it is not a ticket {@link mintTicket} made. */
export function ticketAgent(ticket: unknown): string | undefined {
  if (typeof ticket !== 'string' || ticket.length > 1024) return undefined
  const match = TICKET.exec(ticket)
  return match === null ? undefined : Buffer.from(match[1]!, 'base64url').toString('utf8')
}
