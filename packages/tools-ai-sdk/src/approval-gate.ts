import type { Context } from '@deepseek-ai/cordis'
import type { PreToolDecision, ToolExecution } from '@dsh/tools-core'

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })

/** Calls in flight whose `ask` a person already answered the AI SDK's way: callId → tool name. */
type Admitted = Map<string, string>

const gates = new WeakMap<Context, Admitted>()

// Installed on the first approved call only: a `tools/pre-execute` listener makes every later
// call of the context run the gate, so a loop that never approves anything never pays for it.
function admittedOf(ctx: Context): Admitted {
  let admitted = gates.get(ctx)
  if (admitted === undefined) {
    const table: Admitted = new Map()
    admitted = table
    gates.set(ctx, table)
    ctx.on(
      'tools/pre-execute',
      async (execution: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
        const decision = await next()
        // Outermost: it sees every other listener's final word, and turns only an `ask` into
        // `allow` — a `deny` stays a deny, and the guards after the gate still run.
        if (decision?.kind !== 'ask' || execution.parent !== undefined) return decision
        return table.get(execution.callId) === execution.name ? ALLOW : decision
      },
      { prepend: true },
    )
  }
  return admitted
}

/**
 * Let the pipeline's gate treat an `ask` for the top-level call `callId` of `name` as answered
 * (approved) until the returned release is called. Only for a call the AI SDK runs because a
 * person approved it (see `approvedInMessages`).
 */
export function admitApproved(ctx: Context, callId: string, name: string): () => void {
  const admitted = admittedOf(ctx)
  admitted.set(callId, name)
  return () => {
    if (admitted.get(callId) === name) admitted.delete(callId)
  }
}
