/**
 * Run tickets (SPEC §13.3): the ticket a suspended `run_code` run is resumed by,
 * `run.<agent, base64url>.<144 random bits, base64url>` — the same shape as an approval ticket,
 * with the kind `run` that `ctx.tools.resume` routes to Code Mode.
 */
import { randomBytes } from 'node:crypto'

/** The ticket kind Code Mode registers its resumer for. */
export const RUN_TICKET_KIND = 'run'

/** A fresh run ticket for a run of `agent` (`''` outside any agent scope). */
export function mintRunTicket(agent: string): string {
  return `${RUN_TICKET_KIND}.${Buffer.from(agent, 'utf8').toString('base64url')}.${randomBytes(18).toString('base64url')}`
}

const TICKET = /^run\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22,})$/

/** The agent a run ticket belongs to, or `undefined` when it is not one {@link mintRunTicket} made. */
export function runTicketAgent(ticket: unknown): string | undefined {
  if (typeof ticket !== 'string' || ticket.length > 1024) return undefined
  const match = TICKET.exec(ticket)
  return match === null ? undefined : Buffer.from(match[1]!, 'base64url').toString('utf8')
}
