import { type Context, Service } from '@deepseek-ai/cordis'
import type { ToolStateStore } from '@dsh/tools-core'
import { ApprovalBook, type ApprovalDecisionInput, type ApprovalQuery } from './approval-book'
import type { ApprovalView } from './approval-view'
import { Config, type ToolApprovalsConfig, validateConfig } from './config'

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** Durable approvals: list, read and decide tickets (`@dsh/tool-approvals`). */
    approvals: ToolApprovals
  }
  interface Events {
    /** A call was suspended for approval (its ticket was stored). Observe-only; a throw is reported. */
    'approvals/pending'(approval: ApprovalView): void
    /** A ticket was decided. Observe-only; a throw is reported. */
    'approvals/decided'(approval: ApprovalView): void
  }
}

/**
 * Durable approvals (SPEC §13.2), a cordis service at `ctx.approvals` over `ctx.toolStore`. It
 * also provides the `approval` seam tools-core asks: an asked call is stored as a pending,
 * unguessable ticket and ends `APPROVAL_PENDING`; a person decides it (signed with
 * `signingKey`); `ctx.tools.resume(ticket)` runs it exactly once, from any process on the store.
 *
 * @example
 * await ctx.plugin(SqliteToolStore, { path: 'tools.db' })
 * await ctx.plugin(ToolApprovals, { signingKey: process.env.APPROVAL_KEY })
 * await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
 * const result = await ctx.tools.resume(ticket, { signal })
 */
export default class ToolApprovals extends Service {
  static inject = ['toolStore']
  /** Standard-schema validator of {@link ToolApprovalsConfig}. */
  static Config = Config

  declare ctx: Context
  // A plain field (not #private): cordis hands out proxies of services.
  private readonly book: ApprovalBook

  constructor(ctx: Context, config: ToolApprovalsConfig) {
    super(ctx, 'approvals')
    const checked = validateConfig(config)
    if (checked.issues !== undefined)
      throw new TypeError(
        `@dsh/tool-approvals: invalid config: ${checked.issues.map((issue) => issue.message).join('; ')}`,
      )
    const emit = (event: 'approvals/pending' | 'approvals/decided', view: ApprovalView) => {
      try {
        ctx.emit(event, view)
      } catch (error) {
        try {
          ctx.logger('dsh-tools').warn(`${event} listener failed`, error)
        } catch {}
      }
    }
    const store = ctx.get('toolStore') as ToolStateStore
    this.book = new ApprovalBook(store, checked.value, {
      pending: (view) => emit('approvals/pending', view),
      decided: (view) => emit('approvals/decided', view),
    })
    ctx.provide('approval', this.book)
  }

  /** Approvals matching `query` (`agent`, `status`), oldest first. */
  list(query?: ApprovalQuery): Promise<ApprovalView[]> {
    return this.book.list(query)
  }

  /** One approval by ticket, or `undefined`. */
  get(ticket: string): Promise<ApprovalView | undefined> {
    return this.book.get(ticket)
  }

  /**
   * Approve or deny a pending ticket (signed). The same decision twice is a no-op; a conflicting
   * one throws `ApprovalDecisionError`, as do unknown, expired and altered tickets.
   */
  decide(ticket: string, decision: ApprovalDecisionInput): Promise<ApprovalView> {
    return this.book.decide(ticket, decision)
  }
}
