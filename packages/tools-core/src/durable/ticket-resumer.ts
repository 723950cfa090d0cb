/**
 * The resume seam for tickets other than approval tickets (SPEC §13.3): a package that suspends
 * work of its own — Code Mode suspends a whole `run_code` run under a *run ticket* — registers a
 * resumer for its ticket kind, and `ctx.tools.resume(ticket)` routes every ticket by the kind
 * its text starts with (`<kind>.<agent>.<random>`). Approval tickets (`apr`) stay with tools-core.
 */
import type { ScopeKey, ToolExecutionResult } from '../types'

/** What a resumer gets besides the ticket. */
export interface TicketResumeOptions {
  /** The caller's signal: ends a wait, and is the resumed work's signal. */
  readonly signal: AbortSignal
  /** The calling agent scope (a scope may resume only its own tickets); `undefined` for the host. */
  readonly scope: ScopeKey | undefined
}

/**
 * Continues the work a ticket of one kind names. Every outcome is a result (`APPROVAL_PENDING`
 * again while it still waits, `APPROVAL_INVALID` for a ticket it cannot trust, …), never a throw.
 */
export type TicketResumer = (ticket: string, options: TicketResumeOptions) => Promise<ToolExecutionResult>

/** A ticket kind: lower-case letters, 1 to 16 of them. */
const KIND = /^[a-z]{1,16}$/

/** The kind a ticket's text starts with (`run` of `run.…`), or `undefined` when it has none. */
export function ticketKind(ticket: unknown): string | undefined {
  if (typeof ticket !== 'string') return undefined
  const dot = ticket.indexOf('.')
  const kind = dot < 0 ? '' : ticket.slice(0, dot)
  return KIND.test(kind) ? kind : undefined
}

/** Whether `kind` may name a resumer (lower-case letters, 1 to 16; `apr` is tools-core's own). */
export function isResumerKind(kind: unknown): kind is string {
  return typeof kind === 'string' && KIND.test(kind) && kind !== 'apr'
}
