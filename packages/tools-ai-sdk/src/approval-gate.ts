import type { Context } from '@deepseek-ai/cordis'
import type { PreToolDecision, ScopeKey, ToolExecution } from '@dsh/tools-core'

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })

/** Calls in flight whose `ask` a person already answered the AI SDK's way: callId → agent and tool. */
type Admitted = Map<string, string>

/** Who an admission is for: the agent (none for a global call) and the tool. */
const holder = (agent: ScopeKey | undefined, name: string) => `${agent ?? ''}\u0000${name}`

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
        return table.get(execution.callId) === holder(execution.agent, execution.name) ? ALLOW : decision
      },
      { prepend: true },
    )
  }
  return admitted
}

/**
 * Let the pipeline's gate treat an `ask` for the top-level call `callId` of `name` by `agent` as
 * answered (approved) until the returned release is called. Only for a call the AI SDK runs
 * because a person approved it (see `approvalInMessages`).
 */
export function admitApproved(
  ctx: Context,
  agent: ScopeKey | undefined,
  callId: string,
  name: string,
): () => void {
  const admitted = admittedOf(ctx)
  const key = holder(agent, name)
  admitted.set(callId, key)
  return () => {
    if (admitted.get(callId) === key) admitted.delete(callId)
  }
}
