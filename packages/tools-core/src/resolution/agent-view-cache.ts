import type { ScopeKey } from '../types'
import type { AgentView } from './agent-view'

/**
 * Views kept at most. Agent keys are chosen by the host (any string on `execute({ agent })`), so
 * the cache must not grow with them; past the bound the oldest view is dropped and rebuilt on
 * its next use — slower for that call, never wrong.
 */
export const MAX_AGENT_VIEWS = 256

/**
 * The per-agent views, built lazily and dropped wholesale on every change that can affect any
 * of them (registration, mask, mode, deferral rule or load, provider). Dropping all instead of
 * working out which agents a change touches keeps invalidation obviously complete; changes are
 * rare next to calls.
 */
export class AgentViewCache {
  private readonly views = new Map<ScopeKey | undefined, AgentView>()
  private revision = 0

  constructor(private readonly build: (agent: ScopeKey | undefined) => AgentView) {}

  /** `agent`'s current view: one map lookup when nothing changed since it was built. */
  of(agent: ScopeKey | undefined): AgentView {
    const cached = this.views.get(agent)
    if (cached !== undefined) return cached
    const revision = this.revision
    const view = this.build(agent)
    // A deferral predicate may register, mask or defer while the view is built: then the view
    // reflects a state that is already gone, so it serves this one read and is not kept.
    if (revision === this.revision) {
      if (this.views.size >= MAX_AGENT_VIEWS) this.views.delete(this.views.keys().next().value)
      this.views.set(agent, view)
    }
    return view
  }

  /** Forget every view: something they were built from changed. */
  invalidate(): void {
    this.revision++
    this.views.clear()
  }

  /** Forget one agent's view (its scope was disposed), so short-lived agents leave nothing behind. */
  drop(agent: ScopeKey): void {
    this.views.delete(agent)
  }

  /** How many views are kept (for tests and diagnostics). */
  get size(): number {
    return this.views.size
  }
}
