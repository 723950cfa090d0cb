/**
 * A scripted agent turn (no LLM): the "model" asks to deploy, then answers with what the tool
 * returned. A turn whose call waits for approval stops there; `continueTurn` finishes it once the
 * ticket is decided — in whatever process the decision lands in.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecutionResult } from '@dsh/tools-core'

/** Where a turn is: waiting for a person, or finished with the agent's reply. */
export type TurnState =
  | { readonly status: 'waiting'; readonly ticket: string }
  | { readonly status: 'done'; readonly reply: string }

function textOf(result: ToolExecutionResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('')
}

/** The model's second step: it reads the tool result and answers. */
function finalReply(result: ToolExecutionResult): TurnState {
  if (result.isError && result.error.info?.code === 'APPROVAL_PENDING' && result.pending !== undefined)
    return { status: 'waiting', ticket: result.pending.ticket }
  return {
    status: 'done',
    reply: result.isError ? `I could not deploy: ${result.error.message}` : `Done — ${textOf(result)}.`,
  }
}

/** The model's first step: one `deploy` call. */
export async function startTurn(ctx: Context, target: string): Promise<TurnState> {
  const signal = AbortSignal.timeout(30_000)
  const result = await ctx.tools.execute({
    callId: `deploy-${target}`,
    name: 'deploy',
    arguments: { target },
    signal,
  })
  return finalReply(result)
}

/** Continue a waiting turn once its ticket is decided (exactly once, whichever process asks). */
export async function continueTurn(ctx: Context, ticket: string): Promise<TurnState> {
  return finalReply(await ctx.tools.resume(ticket, { signal: AbortSignal.timeout(30_000) }))
}
