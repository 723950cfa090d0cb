import type { Context } from '@deepseek-ai/cordis'
import type { PreToolDecision, ToolExecution } from '@dsh/tools-core'

/**
 * A `tools/pre-execute` listener for trusted annotations: a call to a tool of this server that
 * is annotated `destructive` (and not `readOnly`) is turned from `allow` into `ask`, so the
 * approval service decides (and without one, the call is denied). It only tightens: a `deny`
 * or `ask` from other listeners is kept as it is.
 */
export function askBeforeDestructive(
  ctx: Context,
  server: string,
  owns: (definition: ReturnType<Context['tools']['get']>) => boolean,
) {
  return async (exec: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
    const decision = await next()
    if (decision.kind !== 'allow') return decision
    const definition = ctx.tools.get(exec.name, exec.agent)
    const hints = definition?.annotations
    if (!owns(definition) || hints?.destructive !== true || hints.readOnly === true) return decision
    return { kind: 'ask', reason: `MCP server "${server}" marks \`${exec.name}\` as destructive` }
  }
}
