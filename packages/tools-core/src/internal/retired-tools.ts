/**
 * Tools whose registering plugin, scope or context was disposed, remembered (boundedly) so that a
 * later call by name says why the tool is gone instead of a bare "unknown tool" for a name the
 * caller saw registered. Registering the name again forgets it; a remover called on purpose
 * records nothing.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey } from '../types'
import { readScopeKey } from './scope-key'

/** Names remembered at most; the oldest is forgotten first. */
const MAX_RETIRED = 256

export class RetiredTools {
  private readonly reasons = new Map<string, string>()

  private static key(name: string, agent: ScopeKey | undefined): string {
    return agent === undefined ? `g:${name}` : `a:${agent}:${name}`
  }

  /** Remember that `name` (in `agent`'s layer, or global) went away because `reason`. */
  retire(name: string, agent: ScopeKey | undefined, reason: string): void {
    const key = RetiredTools.key(name, agent)
    this.reasons.delete(key)
    this.reasons.set(key, reason)
    if (this.reasons.size > MAX_RETIRED) this.reasons.delete(this.reasons.keys().next().value!)
  }

  /** Forget `name` (it is registered again). */
  forget(name: string, agent: ScopeKey | undefined): void {
    this.reasons.delete(RetiredTools.key(name, agent))
  }

  /** Why `name` is gone from `agent`'s own layer (`undefined`: the global layer), if remembered. */
  reasonFor(name: string, agent: ScopeKey | undefined): string | undefined {
    return this.reasons.get(RetiredTools.key(name, agent))
  }
}

/** What registers through `ctx`, for the "was disposed" reason: its agent scope, its plugin, or the root context. */
export function ownerLabel(ctx: Context): string {
  const key = readScopeKey(ctx)
  if (key !== undefined) return `agent scope \`${key}\``
  return ctx.fiber.runtime ? `plugin \`${ctx.fiber.name}\`` : 'the context that registered it'
}
