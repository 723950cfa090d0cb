import type { CompiledTool } from '../internal/compiled-tool'
import type { ScopeKey, ToolPresentationMode } from '../types'

/** What a deferred, not-yet-loaded name resolves to: known (the call gets the `tool_search` hint), not callable. */
export const DEFERRED: unique symbol = Symbol('dsh-tools.deferred')

/** What one name means to one agent: the tool it calls, or {@link DEFERRED}. A name it cannot see is absent. */
export type ViewEntry = CompiledTool | typeof DEFERRED

/**
 * Everything name resolution and presentation need for one agent, computed in one walk of the
 * registry and the deferral rules. Immutable: a change builds a new view instead of patching this
 * one, so a call holding it (or a listing in progress) never sees a half-applied change.
 */
export interface AgentView {
  /** The agent's presentation mode (its `presentAs`, else the config mode). */
  readonly mode: ToolPresentationMode
  /** The `run_code` transport, when a provider is installed and the mode is not native. */
  readonly transport: CompiledTool | undefined
  /** Every name the agent can resolve: its tools, present built-ins, and deferred names. */
  readonly names: ReadonlyMap<string, ViewEntry>
  /** The tools it sees, in presentation order: admitted globals, its own tools, then built-ins. */
  readonly visible: readonly CompiledTool[]
  /** Its deferred tools not loaded yet (what `tool_search` ranks), in the same order. */
  readonly deferred: readonly CompiledTool[]
}

/** A tool the runtime itself offers, present per agent (e.g. `tool_search` while something is deferred). */
export interface BuiltinTool {
  readonly tool: CompiledTool
  /** Whether `agent` sees it; `deferring` says whether some tool is deferred and not loaded for it. */
  present(agent: ScopeKey | undefined, deferring: boolean): boolean
}

/** What the view is built from: the registry's layers and the deferral rules. */
export interface ViewSource {
  /** The winning tool per name the agent's masks admit: globals (registration order), then its own. */
  admitted(agent: ScopeKey | undefined): CompiledTool[]
  modeOf(agent: ScopeKey | undefined): ToolPresentationMode
  transport(): CompiledTool | undefined
  builtins(): readonly BuiltinTool[]
  /** Whether a tool is deferred for the agent and not loaded by it (may run user predicates). */
  hides(tool: CompiledTool, agent: ScopeKey | undefined): boolean
}

/** Build `agent`'s view. Deferral predicates run here, once per tool per rebuild, not per call. */
export function buildAgentView(source: ViewSource, agent: ScopeKey | undefined): AgentView {
  const names = new Map<string, ViewEntry>()
  const visible: CompiledTool[] = []
  const deferred: CompiledTool[] = []
  for (const tool of source.admitted(agent)) {
    if (source.hides(tool, agent)) {
      deferred.push(tool)
      names.set(tool.name, DEFERRED)
    } else {
      visible.push(tool)
      names.set(tool.name, tool)
    }
  }
  // Built-in names are reserved at registration, so they never collide with a tool above.
  for (const builtin of source.builtins()) {
    if (!builtin.present(agent, deferred.length > 0)) continue
    visible.push(builtin.tool)
    names.set(builtin.tool.name, builtin.tool)
  }
  const mode = source.modeOf(agent)
  return Object.freeze({
    mode,
    transport: mode === 'native' ? undefined : source.transport(),
    names,
    visible: Object.freeze(visible),
    deferred: Object.freeze(deferred),
  })
}
