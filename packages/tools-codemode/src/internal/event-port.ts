/**
 * The cheap event path of the bridge: reads the bus's hook table directly (no context proxy
 * and no dispatch when nobody listens) and applies the same scope rule as the tool runtime's
 * own events: global listeners see every sub-call, a scoped listener only its agent's.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey } from '@dsh/tools-core'
import type { DispatchEventPort } from '../bridge-ports'

interface HookRecord {
  readonly ctx: unknown
  readonly callback: (event: unknown) => unknown
  readonly global?: boolean
}

/** The context property carrying an agent scope's key (a global symbol shared with tools-core). */
const SCOPE_KEY = Symbol.for('dsh-tools.scope')

function scopeOf(hook: HookRecord): ScopeKey | undefined {
  const key = (hook.ctx as { [SCOPE_KEY]?: unknown } | null)?.[SCOPE_KEY]
  return typeof key === 'string' ? key : undefined
}

/** Build the event port over a context's event bus. Listener errors are swallowed (observe-only). */
export function createDispatchEventPort(ctx: Context): DispatchEventPort {
  const hooks = (ctx.root.events as unknown as { _hooks: Record<string, HookRecord[] | undefined> })._hooks
  return {
    listening: (name) => (hooks[name]?.length ?? 0) > 0,
    emit(name, agent, event) {
      const list = hooks[name]
      if (list === undefined || list.length === 0) return
      for (const hook of list.slice()) {
        if (hook.global !== true) {
          const key = scopeOf(hook)
          if (key !== undefined && key !== agent) continue
        }
        try {
          const returned = hook.callback(event)
          if (returned instanceof Promise) returned.catch(() => {})
        } catch {
          // observe-only: a throwing listener never disturbs the run
        }
      }
    },
  }
}
