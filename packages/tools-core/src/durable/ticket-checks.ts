/**
 * What resume checks before it trusts a stored approval: the record is readable and addresses
 * itself, its arguments still hash to the hash the decision signed, the decision's signature
 * holds, and its state agrees with the decision. Any failure is `APPROVAL_INVALID` — a record
 * altered in the store is refused, never run.
 */
import type { JsonValue } from '@dsh/tools-schema'
import { ApprovalInvalidError } from '../errors'
import type { StoredRecord } from '../store/tool-state-store'
import { ApprovalState, type ApprovalTicketData } from './approval-ticket'
import type { DurableApprovalService } from './durable-approval'
import { argumentsHash } from './tool-fingerprint'

const DECIDED: ReadonlySet<string> = new Set([
  ApprovalState.APPROVED,
  ApprovalState.DENIED,
  ApprovalState.RUNNING,
  ApprovalState.DONE,
])

function parseData(record: StoredRecord): ApprovalTicketData | undefined {
  try {
    const data = JSON.parse(record.data) as Partial<ApprovalTicketData> | null
    if (typeof data !== 'object' || data === null || data.v !== 1) return undefined
    if (typeof data.ticket !== 'string' || typeof data.agent !== 'string' || typeof data.tool !== 'string')
      return undefined
    if (typeof data.callId !== 'string' || typeof data.argumentsHash !== 'string') return undefined
    if (typeof data.fingerprint !== 'string' || typeof data.expiresAt !== 'number') return undefined
    if (!('arguments' in data)) return undefined
    return data as ApprovalTicketData
  } catch {
    return undefined
  }
}

/**
 * The record's data when it can be trusted, else the `APPROVAL_INVALID` error saying why.
 * `ticket` and `agent` are what the caller asked for (the record must address itself the same).
 */
export function checkTicket(
  record: StoredRecord,
  ticket: string,
  agent: string,
  service: DurableApprovalService,
): ApprovalTicketData | ApprovalInvalidError {
  const invalid = (why: string) => new ApprovalInvalidError(`approval ${ticket} is invalid: ${why}`)
  const data = parseData(record)
  if (data === undefined) return invalid('its stored record is unreadable')
  if (data.ticket !== ticket || data.agent !== agent) return invalid('its stored record names another ticket')
  if (argumentsHash(data.arguments as JsonValue) !== data.argumentsHash)
    return invalid('its stored arguments do not match the arguments that were approved')
  if (!DECIDED.has(record.state)) return data
  const decision = data.decision
  if (decision === undefined || typeof decision.approve !== 'boolean')
    return invalid(`its record is \`${record.state}\` but holds no decision`)
  const problem = service.verifyDecision(data)
  if (problem !== undefined) return invalid(problem)
  if (decision.approve !== (record.state !== ApprovalState.DENIED))
    return invalid(
      `its record is \`${record.state}\` but the signed decision says ${decision.approve ? 'approve' : 'deny'}`,
    )
  return data
}
