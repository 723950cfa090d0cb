import { ApprovalPendingError } from '../errors'
import { failureOf } from '../pipeline/results'
import type { ToolFailure } from '../types'
import type { ToolPendingApproval } from './approval-ticket'

/**
 * The `APPROVAL_PENDING` failure of a suspended call: `result.pending` carries the ticket, and
 * the content tells a model that nothing ran and not to call again — so a naive loop that
 * forwards every result to the model stays safe.
 */
export function pendingFailure(pending: ToolPendingApproval): ToolFailure {
  const why = pending.reason === undefined || pending.reason === '' ? '' : ` (${pending.reason})`
  const message =
    `tool call \`${pending.tool}\` is waiting for a person's approval${why}, ticket ${pending.ticket}; ` +
    'it has not run. Do not call it again: it continues once the approval is decided.'
  return Object.freeze({
    ...failureOf(new ApprovalPendingError(message)),
    pending: Object.freeze({ ...pending }),
  })
}
