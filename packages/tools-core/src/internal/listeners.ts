import type { ScopeKey } from '../types'
import { readScopeKey } from './scope-key'

/** The slice of a cordis hook record the runtime reads. */
export interface HookRecord {
  readonly ctx: unknown
  readonly callback: (...args: any[]) => any
  readonly global?: boolean
}

/** The cordis hook table (`ctx.events._hooks`), captured once at construction. */
export type HookTable = Record<string | symbol, HookRecord[] | undefined>

export type Listener = (...args: any[]) => any

const scopeCache = new WeakMap<object, ScopeKey | null>()

function hookScope(hook: HookRecord): ScopeKey | undefined {
  let key = scopeCache.get(hook)
  if (key === undefined) {
    key = readScopeKey(hook.ctx) ?? null
    scopeCache.set(hook, key)
  }
  return key ?? undefined
}

/**
 * The listeners of one event that see an execution of `agent`, in dispatch order. Global
 * listeners (plain contexts, or `{ global: true }`) see all; scoped listeners see only their
 * own agent. Returns `undefined` when nobody listens, so callers skip the dispatch entirely.
 */
export function listenersFor(
  hooks: HookTable,
  event: string,
  agent: ScopeKey | undefined,
): Listener[] | undefined {
  const list = hooks[event]
  if (list === undefined || list.length === 0) return undefined
  let out: Listener[] | undefined
  for (const hook of list) {
    if (hook.global !== true) {
      const key = hookScope(hook)
      if (key !== undefined && key !== agent) continue
    }
    if (out === undefined) out = [hook.callback]
    else out.push(hook.callback)
  }
  return out
}

/**
 * Run a waterfall over a snapshotted listener list. Each level gets its own `next`, so a
 * wrapper that calls `next()` twice (a retry) re-runs the rest of the chain.
 */
export function runWaterfall<T>(listeners: readonly Listener[], args: readonly unknown[], inner: () => T): T {
  const level = (index: number): (() => T) => {
    const listener = listeners[index]
    if (listener === undefined) return inner
    return () => listener(...args, level(index + 1))
  }
  return level(0)()
}
