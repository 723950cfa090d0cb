import type { ToolStateStore } from '../store/tool-state-store'
import type { ApprovalService } from '../types'
import type { ApprovalTicketData } from './approval-ticket'

/**
 * An approval service whose tickets outlive the process (`@dsh/tool-approvals`): its `request`
 * persists the asked call and answers `{ suspend }`, and `ctx.tools.resume(ticket)` reads the
 * tickets back from its store. Detected duck-typed on `ctx.get('approval')`.
 */
export interface DurableApprovalService extends ApprovalService {
  /** The store the tickets live in. */
  readonly store: ToolStateStore
  /** How long (ms) a resuming process holds its claim before it counts as dead. */
  readonly leaseMs: number
  /** How long (ms) a finished ticket's result is kept for later resumes. */
  readonly retainMs: number
  /**
   * Check the decision's signature over the record's ticket, decision, argument hash,
   * fingerprint, agent and expiry: `undefined` when it holds, else why not.
   */
  verifyDecision(data: ApprovalTicketData): string | undefined
}

/** The durable approval service, when the one at `ctx.approval` is one. */
export function asDurable(service: unknown): DurableApprovalService | undefined {
  const candidate = service as Partial<DurableApprovalService> | undefined
  return typeof candidate?.verifyDecision === 'function' &&
    typeof candidate.store?.update === 'function' &&
    typeof candidate.leaseMs === 'number'
    ? (candidate as DurableApprovalService)
    : undefined
}
