/**
 * A decision `ctx.approvals.decide` refuses: a conflicting second decision, an expired, unknown
 * or altered ticket. Thrown to the reviewer's code (never a tool result).
 */
export class ApprovalDecisionError extends Error {
  override readonly name = 'ApprovalDecisionError'
}
