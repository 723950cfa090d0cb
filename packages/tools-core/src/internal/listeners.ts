/**
 * The one place that reads cordis' listener table. The runtime's pipeline and the public
 * `createScopedEmitter` both go through here, so the scope rule (global listeners see every
 * agent, a scoped listener only its own) is written once.
 */
import type { Context, Hook } from '@deepseek-ai/cordis'
import type { ScopeKey } from '../types'
import { readScopeKey } from './scope-key'

/**
 * Cordis' listener table, by event name. cordis never replaces the object (it only adds and
 * splices lists), so a captured table stays current.
 */
export type HookTable = Readonly<Record<string | symbol, readonly Hook[] | undefined>>

export type Listener = (...args: any[]) => any

/** The listener table of `ctx`'s event bus; capture it once, it stays live. */
export function hookTableOf(ctx: Context): HookTable {
  const hooks = (ctx as Partial<Context> | null | undefined)?.events?._hooks
  if (typeof hooks !== 'object' || hooks === null)
    throw new TypeError("expected a cordis Context (its event bus's listener table was not found)")
  return hooks
}

/**
 * The registered listeners of `event`, or `undefined`. The table is a plain object, so a
 * name such as `constructor` reads an inherited value; only a real list counts.
 */
export function hooksOf(hooks: HookTable, event: string | symbol): readonly Hook[] | undefined {
  const list = hooks[event]
  return Array.isArray(list) && list.length > 0 ? list : undefined
}

// A hook record keeps its ctx for life, so its scope is read once.
const scopeCache = new WeakMap<object, ScopeKey | null>()

function hookScope(hook: Hook): ScopeKey | undefined {
  let key = scopeCache.get(hook)
  if (key === undefined) {
    key = readScopeKey(hook.ctx) ?? null
    scopeCache.set(hook, key)
  }
  return key ?? undefined
}

/**
 * The listeners of one event that see an execution of `agent`, in dispatch order, as a fresh
 * array (a snapshot: listeners added or removed while it is used do not shift it). Global
 * listeners (plain contexts, or `{ global: true }`) see all; scoped listeners see only their
 * own agent. Returns `undefined` when nobody listens, so callers skip the dispatch entirely.
 */
export function listenersFor(
  hooks: HookTable,
  event: string | symbol,
  agent: ScopeKey | undefined,
): Listener[] | undefined {
  const list = hooksOf(hooks, event)
  if (list === undefined) return undefined
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
 * Call observe-only listeners in order. A listener that throws, or returns a thenable that
 * rejects, goes to `onError` and never stops the others; a throwing `onError` is ignored.
 */
export function notifyListeners(
  listeners: readonly Listener[],
  args: readonly unknown[],
  onError: (error: unknown) => void,
): void {
  const report = (error: unknown) => {
    try {
      onError(error)
    } catch {}
  }
  for (const listener of listeners) {
    try {
      const returned = listener(...args)
      // `then` is read once: a hostile return value's getter may throw or change its answer.
      const then = returned?.then
      if (typeof then === 'function') then.call(returned, undefined, report)
    } catch (error) {
      report(error)
    }
  }
}

/**
 * Run a waterfall over a snapshotted listener list. Each level gets its own `next`, so a
 * wrapper that calls `next()` twice (a retry) re-runs the rest of the chain. Once `stop()` holds
 * (the call was ended by a disposal), `next()` runs no further listener: it returns `inner()`.
 */
export function runWaterfall<T>(
  listeners: readonly Listener[],
  args: readonly unknown[],
  inner: () => T,
  stop?: () => boolean,
): T {
  const level = (index: number): (() => T) => {
    const listener = listeners[index]
    if (listener === undefined) return inner
    if (stop === undefined) return () => listener(...args, level(index + 1))
    return () => (stop() ? inner() : listener(...args, level(index + 1)))
  }
  return level(0)()
}
