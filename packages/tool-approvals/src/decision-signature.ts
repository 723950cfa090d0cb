/**
 * The signature of a decision (SPEC §13.2): HMAC-SHA256 over the canonical JSON of the ticket,
 * the decision (approve, by, note, at), the argument hash, the definition fingerprint, the agent
 * and the expiry. Verified in constant time: a record altered in the store — any of those
 * fields, or the decision — no longer verifies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { type ApprovalTicketData, canonicalJson } from '@dsh/tools-core'

/** What is signed, taken from the record and its (unsigned) decision. */
export interface SignedFields {
  readonly ticket: string
  readonly agent: string
  readonly argumentsHash: string
  readonly fingerprint: string
  readonly expiresAt: number
  readonly approve: boolean
  readonly by: string
  readonly note: string | undefined
  readonly at: number
}

/** The hex HMAC of `fields` under `key`. */
export function signDecision(key: Buffer, fields: SignedFields): string {
  const payload = canonicalJson({ purpose: 'dsh-tools approval decision v1', ...fields })
  return createHmac('sha256', key).update(payload, 'utf8').digest('hex')
}

const HEX_SHA256 = /^[0-9a-f]{64}$/

/** `undefined` when the record's decision carries a valid signature under `key`, else why not. */
export function verifyDecision(key: Buffer, data: ApprovalTicketData): string | undefined {
  const decision = data.decision
  if (decision === undefined) return 'it holds no decision'
  if (typeof decision.signature !== 'string' || !HEX_SHA256.test(decision.signature))
    return 'its decision carries no signature'
  const expected = signDecision(key, {
    ticket: data.ticket,
    agent: data.agent,
    argumentsHash: data.argumentsHash,
    fingerprint: data.fingerprint,
    expiresAt: data.expiresAt,
    approve: decision.approve,
    by: decision.by,
    note: decision.note,
    at: decision.at,
  })
  const valid = timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(decision.signature, 'hex'))
  return valid
    ? undefined
    : 'the signature of its decision does not match the record (altered in the store, or signed with another key)'
}
