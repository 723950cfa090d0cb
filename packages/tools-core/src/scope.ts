import type { Context } from '@deepseek-ai/cordis'
import { readScopeKey, SCOPE_KEY } from './internal/scope-key'
import { endAgentCalls } from './runtime'
import type { ScopeKey } from './types'

/** An agent scope: a child context whose registrations belong to one agent and end with it. */
export interface ToolScope {
  /** The scope's context. Tools, guards, masks, modes and listeners made through it are the agent's. */
  readonly ctx: Context
  /** The agent's scope key (`exec.agent` of its calls). */
  readonly key: ScopeKey
  /** Dispose the scope's fiber, removing everything registered through `ctx`. */
  dispose(): Promise<void>
}

/**
 * Create an agent scope under `ctx`. Registrations made through `scope.ctx` land in the
 * agent's layer (shadowing globals of the same name there); listeners registered through it
 * see only that agent's executions. `dispose()` ends them all, and ends the agent's calls in flight
 * `ABORTED` (within the runtime's `disposeGraceMs`).
 *
 * @example
 * const agent = createScope(ctx, 'agent-1')
 * agent.ctx.tools.register(myLocalTool)
 * agent.ctx.tools.restrict({ deny: ['bash'] })
 * await agent.dispose()
 */
export function createScope(ctx: Context, key: ScopeKey): ToolScope {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError('createScope() needs a non-empty string key')
  const fiber = ctx.plugin({
    name: `dsh-tools.scope(${key})`,
    inject: { tools: { required: false } },
    apply(scope: Context) {
      // Disposing the scope ends the agent's calls in flight, including those made through
      // another ctx with `agent: key` (a served MCP session, a Code Mode sub-call).
      scope.effect(() => () => endAgentCalls(scope.get('tools'), key), 'tools: end the agent scope')
    },
  })
  const scoped = fiber.ctx.extend({ [SCOPE_KEY]: key })
  return Object.freeze({
    ctx: scoped,
    key,
    async dispose() {
      await fiber.dispose()
    },
  })
}

/**
 * The scope key a context belongs to (`undefined` for plain contexts).
 *
 * @example
 * scopeOf(createScope(ctx, 'a').ctx) // 'a'
 */
export function scopeOf(ctx: Context): ScopeKey | undefined {
  return readScopeKey(ctx)
}
