import type { ScopeKey } from '../types'

/** The context property carrying an agent scope's key (global symbol: copies of the package agree). */
export const SCOPE_KEY: unique symbol = Symbol.for('dsh-tools.scope') as never

/** Read the scope key a context belongs to (`undefined` for plain contexts). */
export function readScopeKey(ctx: unknown): ScopeKey | undefined {
  if (ctx === null || ctx === undefined) return undefined
  const key = (ctx as { [SCOPE_KEY]?: unknown })[SCOPE_KEY]
  return typeof key === 'string' ? key : undefined
}
