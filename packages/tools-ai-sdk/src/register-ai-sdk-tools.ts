import type { Context } from '@deepseek-ai/cordis'
import { type PreToolDecision, scopeOf, type ToolExecution } from '@dsh/tools-core'
import type { ToolSet } from 'ai'
import { type AiSdkTool, aiSdkToolDefinition } from './ai-sdk-tool-definition'
import type { AiSdkOptions } from './types'

type NeedsApproval = NonNullable<AiSdkTool['needsApproval']>

/**
 * The tools' own `needsApproval` as policy: a call it flags is `ask` (unless a listener inside
 * already denied it), so it reaches the approval service like any other ask.
 */
function approvalListener(ctx: Context, flagged: ReadonlyMap<string, NeedsApproval>): () => void {
  return ctx.on(
    'tools/pre-execute',
    async (execution: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
      const decision = await next()
      const needs = flagged.get(execution.name)
      if (needs === undefined || decision?.kind === 'deny' || decision?.kind === 'ask') return decision
      const verdict =
        typeof needs === 'function'
          ? await needs(execution.arguments as never, {
              toolCallId: execution.callId,
              messages: [],
              context: undefined,
            })
          : needs
      return verdict
        ? { kind: 'ask', reason: `\`${execution.name}\` asks for approval (needsApproval)` }
        : decision
    },
  )
}

/**
 * Register Vercel AI SDK tools (inputs as zod, any Standard Schema, or `jsonSchema(...)`) in the
 * registry, so they get validation, policy, guards, Code Mode bindings and MCP serving like any
 * tool. Each key of `tools` is the tool's name. Registrations land in `ctx`'s layer (an agent
 * scope's ctx registers for that agent; `agent`, when given, must name that scope). A tool's
 * `needsApproval` becomes an `ask` of the policy. All tools are checked before any is
 * registered; a tool that cannot run here (provider tool, no `execute`, …) throws a
 * `TypeError`, a name the registry refuses throws its registration error, and nothing stays
 * registered. Returns a disposer that removes them all (they also end with `ctx`'s fiber).
 *
 * @example
 * const dispose = registerAiSdkTools(ctx, {
 *   weather: tool({ description: 'Weather in a city', inputSchema: z.object({ city: z.string() }),
 *     execute: async ({ city }) => ({ city, celsius: 21 }) }),
 * })
 */
export function registerAiSdkTools(ctx: Context, tools: ToolSet, options?: AiSdkOptions): () => void {
  if (options?.agent !== undefined && options.agent !== scopeOf(ctx)) {
    throw new TypeError(
      `registerAiSdkTools(): agent \`${options.agent}\` is not the scope of ctx: register through that agent's scope ctx (createScope(ctx, key).ctx)`,
    )
  }
  const entries = Object.entries(tools ?? {})
  const definitions = entries.map(([name, tool]) => aiSdkToolDefinition(name, tool))
  const flagged = new Map<string, NeedsApproval>()
  for (const [name, tool] of entries) {
    if (tool.needsApproval !== undefined && tool.needsApproval !== false)
      flagged.set(name, tool.needsApproval)
  }
  const disposers: (() => void)[] = []
  const disposeAll = () => {
    for (const dispose of disposers.splice(0).reverse()) dispose()
  }
  try {
    for (const definition of definitions) disposers.push(ctx.tools.register(definition))
    if (flagged.size > 0) disposers.push(approvalListener(ctx, flagged))
  } catch (error) {
    disposeAll()
    throw error
  }
  return disposeAll
}
