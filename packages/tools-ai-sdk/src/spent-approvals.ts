import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecutionResult } from '@dsh/tools-core'

/** How many spent approvals a context remembers (oldest forgotten first). */
export const SPENT_APPROVALS_KEPT = 4096

const spentByContext = new WeakMap<Context, Map<string, Promise<ToolExecutionResult>>>()

function spentOf(ctx: Context): Map<string, Promise<ToolExecutionResult>> {
  let spent = spentByContext.get(ctx)
  if (spent === undefined) {
    spent = new Map()
    spentByContext.set(ctx, spent)
  }
  return spent
}

/**
 * Run an approved call once per approval. The AI SDK runs an approved call whenever the
 * approval comes back without its result — a client that resends the same request after a
 * network error, a double submit — so the first run's result is kept by approval id and a
 * replay gets it back without running the call again. Kept in this process, for the last
 * {@link SPENT_APPROVALS_KEPT} approvals.
 */
export function runOncePerApproval(
  ctx: Context,
  approvalId: string,
  run: () => Promise<ToolExecutionResult>,
): { readonly result: Promise<ToolExecutionResult>; readonly replayed: boolean } {
  const spent = spentOf(ctx)
  const earlier = spent.get(approvalId)
  if (earlier !== undefined) return { result: earlier, replayed: true }
  const result = run()
  spent.set(approvalId, result)
  if (spent.size > SPENT_APPROVALS_KEPT) spent.delete(spent.keys().next().value as string)
  return { result, replayed: false }
}
