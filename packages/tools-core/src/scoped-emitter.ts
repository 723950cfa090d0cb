import type { Context, Events } from '@deepseek-ai/cordis'
import { hooksOf, hookTableOf, type Listener, listenersFor, notifyListeners } from './internal/listeners'
import type { ScopeKey } from './types'

/** Options of {@link createScopedEmitter}. */
export interface ScopedEmitterOptions {
  /**
   * Told about a listener that threw or whose returned promise rejected during `emit` (the
   * error never reaches the emitter). Default: ignored. A throwing `onListenerError` is ignored.
   */
  onListenerError?: (event: keyof Events, error: unknown) => void
}

/**
 * The event bus as the tool runtime sees it: every dispatch names the agent it concerns, and
 * only the listeners that see that agent are reached (see {@link createScopedEmitter}).
 */
export interface ScopedEmitter {
  /**
   * Whether any listener at all, of any scope, is registered for `event`: the cheap check a
   * caller makes before building a payload. It does not apply the scope rule.
   */
  listening(event: keyof Events): boolean
  /**
   * The listeners of `event` that see `agent` (`undefined`: a global execution), in dispatch
   * order, as a snapshot: listeners added or removed afterwards do not change it. Empty when
   * none. Use it to run a dispatch of your own (a waterfall, an awaited chain).
   */
  listeners<K extends keyof Events>(event: K, agent: ScopeKey | undefined): readonly Events[K][]
  /**
   * Observe-only delivery of `args` to `listeners(event, agent)`, synchronously and in order.
   * A listener that throws or rejects never disturbs the caller or the other listeners (see
   * `onListenerError`). Listeners added during the emit are not called by it, like cordis' own
   * `ctx.emit`. Costs one table read when nobody listens.
   */
  emit<K extends keyof Events>(event: K, agent: ScopeKey | undefined, ...args: Parameters<Events[K]>): void
}

const NONE: readonly never[] = Object.freeze([])

/**
 * Dispatch events on `ctx`'s bus under the tool runtime's scope rule, for plugins that emit
 * events about executions of an agent (Code Mode's `tool/code-dispatch`, say). A listener
 * registered through a plain context, or with `{ global: true }`, sees every agent; one
 * registered through an agent scope's ctx (`createScope`) — or a plugin under it — sees only
 * that agent. Listeners end with their fiber as usual. The runtime's own events follow the
 * same rule through the same code; this is the only supported way to read cordis' listener
 * table.
 *
 * @example
 * const events = createScopedEmitter(ctx, { onListenerError: (event, error) => log(event, error) })
 * if (events.listening('tool/code-dispatch')) events.emit('tool/code-dispatch', exec.agent, payload)
 */
export function createScopedEmitter(ctx: Context, options: ScopedEmitterOptions = {}): ScopedEmitter {
  const hooks = hookTableOf(ctx)
  const onListenerError = options.onListenerError
  return Object.freeze({
    listening: (event: keyof Events) => hooksOf(hooks, event) !== undefined,
    listeners: <K extends keyof Events>(event: K, agent: ScopeKey | undefined) =>
      (listenersFor(hooks, event, agent) ?? NONE) as readonly Events[K][],
    emit<K extends keyof Events>(event: K, agent: ScopeKey | undefined, ...args: Parameters<Events[K]>) {
      const listeners: readonly Listener[] | undefined = listenersFor(hooks, event, agent)
      if (listeners === undefined) return
      notifyListeners(listeners, args, onListenerError ? (error) => onListenerError(event, error) : ignore)
    },
  })
}

function ignore(): void {}
