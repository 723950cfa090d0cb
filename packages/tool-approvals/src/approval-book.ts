/**
 * The approvals on one store: what the `approval` seam asks tools-core to suspend on, and what
 * `ctx.approvals` lists and decides. Every change is a compare-and-set on the record, so two
 * reviewers (or processes) racing on one ticket cannot both decide it.
 */
import {
  type ApprovalAnswer,
  type ApprovalRequestDetails,
  ApprovalState,
  type ApprovalTicketData,
  argumentsHash,
  type DurableApprovalService,
  isToolsError,
  mintTicket,
  type StoredRecord,
  type StoredRecordRef,
  StoreUnavailableError,
  type ToolExecution,
  type ToolStateStore,
  ticketAgent,
} from '@dsh/tools-core'
import { type ApprovalView, viewOf } from './approval-view'
import type { ResolvedApprovalsConfig } from './config'
import { signDecision, verifyDecision } from './decision-signature'
import { ApprovalDecisionError } from './errors'

/** What `ctx.approvals.decide` takes. */
export interface ApprovalDecisionInput {
  /** `true` approves, `false` denies. */
  readonly approve: boolean
  /** Who decides (a user id, an e-mail): recorded and signed. */
  readonly by: string
  /** A note; a denial's note is the `DENIED` message the model sees. */
  readonly note?: string
}

/** What `ctx.approvals.list` filters on. */
export interface ApprovalQuery {
  /** One agent's approvals (`''` for calls outside any agent scope); omitted: every agent's. */
  readonly agent?: string
  readonly status?: ApprovalState
}

/** Event emitters the book reports through (a throwing listener never reaches the caller). */
export interface ApprovalEvents {
  pending(view: ApprovalView): void
  decided(view: ApprovalView): void
}

/** The record's data, or `undefined` when its text is not an approval (corrupted in the store). */
function dataOf(record: StoredRecord): ApprovalTicketData | undefined {
  try {
    const data = JSON.parse(record.data) as ApprovalTicketData | null
    return typeof data === 'object' && data !== null && data.v === 1 && typeof data.ticket === 'string'
      ? data
      : undefined
  } catch {
    return undefined
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export class ApprovalBook implements DurableApprovalService {
  readonly leaseMs: number
  readonly retainMs: number

  constructor(
    readonly store: ToolStateStore,
    private readonly config: ResolvedApprovalsConfig,
    private readonly events: ApprovalEvents,
  ) {
    this.leaseMs = config.leaseMs
    this.retainMs = config.ttlMs
  }

  /** A store call; anything it throws becomes `STORE_UNAVAILABLE` naming the store. */
  private async stored<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation()
    } catch (error) {
      if (isToolsError(error) && error.code === 'STORE_UNAVAILABLE') throw error
      throw new StoreUnavailableError(`tool state store ${this.store.label}: ${messageOf(error)}`, {
        cause: error,
      })
    }
  }

  /** The approval seam: persist the asked call as a pending ticket and answer `suspend`. */
  async request(
    execution: ToolExecution,
    reason: string | undefined,
    details?: ApprovalRequestDetails,
  ): Promise<ApprovalAnswer> {
    if (details?.fingerprint === undefined)
      throw new TypeError('a durable approval needs the definition fingerprint (tools-core passes it)')
    const agent = execution.agent ?? ''
    const ticket = mintTicket(agent)
    const now = Date.now()
    const expiresAt = now + this.config.ttlMs
    const data: ApprovalTicketData = {
      v: 1,
      ticket,
      agent,
      tool: execution.name,
      callId: execution.callId,
      ...(details.parentCallId === undefined ? {} : { parentCallId: details.parentCallId }),
      arguments: execution.arguments,
      argumentsHash: argumentsHash(execution.arguments),
      fingerprint: details.fingerprint,
      ...(reason === undefined ? {} : { reason }),
      createdAt: now,
      expiresAt,
    }
    const created = await this.stored(() =>
      this.store.create({
        kind: 'approval',
        agent,
        key: ticket,
        state: ApprovalState.PENDING,
        data: JSON.stringify(data),
        createdAt: now,
        // Kept past its expiry, so a late resume says APPROVAL_EXPIRED rather than "unknown".
        expiresAt: expiresAt + this.config.ttlMs,
      }),
    )
    if (created === undefined)
      throw new StoreUnavailableError(`tool state store ${this.store.label}: ticket collision`)
    this.events.pending(viewOf(created, data, now))
    return { suspend: { ticket, expiresAt } }
  }

  /** See {@link DurableApprovalService.verifyDecision}. */
  verifyDecision(data: ApprovalTicketData): string | undefined {
    return verifyDecision(this.config.signingKey, data)
  }

  private refOf(ticket: string): StoredRecordRef | undefined {
    const agent = ticketAgent(ticket)
    return agent === undefined ? undefined : { kind: 'approval', agent, key: ticket }
  }

  private read(record: StoredRecord): ApprovalTicketData {
    const data = dataOf(record)
    if (data === undefined)
      throw new ApprovalDecisionError(
        `approval ${record.key}: its stored record is unreadable; it cannot be decided`,
      )
    if (argumentsHash(data.arguments) !== data.argumentsHash)
      throw new ApprovalDecisionError(
        `approval ${record.key}: its stored arguments were altered; it cannot be decided`,
      )
    return data
  }

  /** The approvals matching `query`, oldest first. */
  async list(query: ApprovalQuery = {}): Promise<ApprovalView[]> {
    const records = await this.stored(() =>
      this.store.list({
        kind: 'approval',
        ...(query.agent === undefined ? {} : { agent: query.agent }),
        ...(query.status === undefined ? {} : { state: query.status }),
      }),
    )
    const now = Date.now()
    // A record corrupted in the store is left out of listings (its resume is APPROVAL_INVALID).
    return records.flatMap((record) => {
      const data = dataOf(record)
      return data === undefined ? [] : [viewOf(record, data, now)]
    })
  }

  /** One approval, or `undefined` when the ticket is unknown (or swept). */
  async get(ticket: string): Promise<ApprovalView | undefined> {
    const ref = this.refOf(ticket)
    if (ref === undefined) return undefined
    const record = await this.stored(() => this.store.get(ref))
    const data = record === undefined ? undefined : dataOf(record)
    return data === undefined ? undefined : viewOf(record!, data, Date.now())
  }

  /**
   * Decide a pending approval, signing the decision. The same decision again is a no-op (the
   * view is returned); a conflicting one, an expired or unknown ticket throw `ApprovalDecisionError`.
   */
  async decide(ticket: string, input: ApprovalDecisionInput): Promise<ApprovalView> {
    if (typeof input?.approve !== 'boolean') throw new TypeError('decide(): `approve` must be a boolean')
    if (typeof input.by !== 'string' || input.by === '')
      throw new TypeError('decide(): `by` must name who decides')
    if (input.note !== undefined && typeof input.note !== 'string')
      throw new TypeError('decide(): `note` must be a string')
    const ref = this.refOf(ticket)
    if (ref === undefined)
      throw new ApprovalDecisionError(`not an approval ticket: ${String(ticket).slice(0, 80)}`)
    for (;;) {
      const record = await this.stored(() => this.store.get(ref))
      if (record === undefined)
        throw new ApprovalDecisionError(`approval ${ticket} is unknown (never asked, or swept)`)
      const data = this.read(record)
      const now = Date.now()
      if (record.state !== ApprovalState.PENDING) return this.decidedAlready(record, data, input, now)
      if (now >= data.expiresAt)
        throw new ApprovalDecisionError(
          `approval ${ticket} expired at ${new Date(data.expiresAt).toISOString()}`,
        )
      const at = now
      const note = input.note
      const signature = signDecision(this.config.signingKey, {
        ticket,
        agent: data.agent,
        argumentsHash: data.argumentsHash,
        fingerprint: data.fingerprint,
        expiresAt: data.expiresAt,
        approve: input.approve,
        by: input.by,
        note,
        at,
      })
      const decision = {
        approve: input.approve,
        by: input.by,
        ...(note === undefined ? {} : { note }),
        at,
        signature,
      }
      const decided: ApprovalTicketData = { ...data, decision }
      const updated = await this.stored(() =>
        this.store.update(ref, record.version, {
          state: input.approve ? ApprovalState.APPROVED : ApprovalState.DENIED,
          data: JSON.stringify(decided),
          updatedAt: now,
        }),
      )
      if (updated === undefined) continue // another reviewer decided first: look again
      const view = viewOf(updated, decided, now)
      this.events.decided(view)
      return view
    }
  }

  private decidedAlready(
    record: StoredRecord,
    data: ApprovalTicketData,
    input: ApprovalDecisionInput,
    now: number,
  ): ApprovalView {
    const previous = data.decision
    if (previous !== undefined && previous.approve === input.approve) return viewOf(record, data, now)
    const was = previous === undefined ? record.state : previous.approve ? 'approved' : 'denied'
    throw new ApprovalDecisionError(
      `approval ${record.key} was already ${was}${previous === undefined ? '' : ` by ${previous.by}`}; a conflicting decision is refused`,
    )
  }
}
