/**
 * A scripted Code Mode turn (no LLM; SPEC §13.3): the "model" writes one `run_code` program that
 * reads the release notes once and deploys to every target at once. Each deploy asks for
 * approval, so the run suspends: its program, ledger (the notes read, the deploys asked) and
 * clock/random reads go to the store under a run ticket. `decideRun` decides every approval the
 * run waits for and resumes it once — in whatever process — replaying the program: the notes are
 * not read again, each deploy runs exactly once.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecutionResult } from '@dsh/tools-core'

/** Where a Code Mode turn is: waiting for approvals inside its program, or done. */
export type CodeTurnState =
  | {
      readonly status: 'waiting'
      /** The run ticket. */
      readonly ticket: string
      /** What the program waits for. */
      readonly approvals: readonly { readonly ticket: string; readonly tool: string }[]
    }
  | { readonly status: 'done'; readonly reply: string }

function state(result: ToolExecutionResult): CodeTurnState {
  if (result.isError && result.error.info?.code === 'APPROVAL_PENDING' && result.pending !== undefined)
    return {
      status: 'waiting',
      ticket: result.pending.ticket,
      approvals: (result.pending.approvals ?? []).map(({ ticket, tool }) => ({ ticket, tool })),
    }
  if (result.isError) return { status: 'done', reply: `The release failed: ${result.error.message}` }
  const value = result.value as { logs: string[]; result?: unknown }
  return { status: 'done', reply: `Released: ${JSON.stringify(value.result)}` }
}

/** The program the scripted model writes for `targets`. */
export function releaseProgram(targets: readonly string[]): string {
  return `const notes = await tools.read_notes({})
const started = new Date().toISOString()
const results = await Promise.all(${JSON.stringify(targets)}.map((target) => tools.deploy({ target })))
return { notes, started, results }`
}

/** Start a Code Mode turn releasing to `targets`. */
export async function startCodeTurn(ctx: Context, targets: readonly string[]): Promise<CodeTurnState> {
  const result = await ctx.tools.execute({
    callId: `release-${targets.join('-')}`,
    name: 'run_code',
    arguments: { code: releaseProgram(targets), description: 'Release to every target.' },
    signal: AbortSignal.timeout(30_000),
  })
  return state(result)
}

/** Decide every approval run `ticket` waits for, then resume it once. */
export async function decideRun(
  ctx: Context,
  ticket: string,
  decision: { readonly approve: boolean; readonly by: string },
): Promise<CodeTurnState> {
  const signal = AbortSignal.timeout(30_000)
  // A run whose approvals are undecided answers with them and runs nothing.
  let current = state(await ctx.tools.resume(ticket, { signal }))
  while (current.status === 'waiting') {
    for (const approval of current.approvals) {
      const record = await ctx.approvals.get(approval.ticket)
      if (record?.status === 'pending') await ctx.approvals.decide(approval.ticket, decision)
    }
    const next = state(await ctx.tools.resume(ticket, { signal }))
    // A second suspension asks for new approvals: decide those too; the same ones again means stuck.
    if (
      next.status === 'waiting' &&
      next.approvals.every(
        (a) => current.status === 'waiting' && current.approvals.some((b) => b.ticket === a.ticket),
      )
    )
      return next
    current = next
  }
  return current
}
