import { ToolRegistrationError } from './errors'
import type { CompiledTool } from './internal/compiled-tool'
import { RetiredTools } from './internal/retired-tools'
import {
  type AgentView,
  type BuiltinTool,
  buildAgentView,
  DEFERRED,
  type ViewSource,
} from './resolution/agent-view'
import { AgentViewCache } from './resolution/agent-view-cache'
import type { CodeModeProvider, ScopeKey, ToolGuard, ToolPresentationMode, ToolRestriction } from './types'

/** The name of the Code Mode transport, reserved in every mode. */
export const RESERVED_TOOL_NAME = 'run_code'

/** Names of the runtime's built-in tools (`read_result`, `tool_search`), reserved in every mode. */
export const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(['read_result', 'tool_search'])

/** Hides deferred tools that an agent has not loaded yet (see `DeferredTools`). */
export interface Deferral {
  hides(tool: CompiledTool, agent: ScopeKey | undefined): boolean
}

interface Mask {
  readonly allow: boolean
  readonly names: ReadonlySet<string>
}

interface ScopeLayer {
  readonly tools: Map<string, CompiledTool>
  masks: readonly Mask[]
  mode: ToolPresentationMode | undefined
}

/** A guard with the agent it belongs to (`undefined` = global). */
export interface GuardEntry {
  readonly guard: ToolGuard
  readonly agent: ScopeKey | undefined
}

/** The installed Code Mode provider with its compiled transport. */
export interface InstalledProvider {
  readonly provider: CodeModeProvider
  readonly transport: CompiledTool
}

/**
 * The registry's state: the global layer, one layer per agent scope (local tools, visibility
 * masks, presentation mode), guards and the Code Mode provider. Mutations return removers;
 * readers never see a half-applied change. Lists the pipeline iterates are copy-on-write.
 * Readers go through a per-agent {@link AgentView}, rebuilt after any change that can affect it,
 * so resolving a name on a call is one map lookup however many tools and rules there are.
 */
export class ToolRegistry {
  private readonly globals = new Map<string, CompiledTool>()
  private readonly layers = new Map<ScopeKey, ScopeLayer>()
  /** Guards in registration order (replaced, never mutated, on change). */
  guards: readonly GuardEntry[] = []
  /** The Code Mode provider, if one is installed. */
  provider: InstalledProvider | undefined
  /** The runtime's built-in tools (see {@link attach}). */
  private builtins: readonly BuiltinTool[] = []
  /** Deferred-tool visibility (see {@link attach}). */
  private deferral: Deferral | undefined
  /** Tools removed by their owner's disposal, for the UNKNOWN_TOOL message. */
  readonly retired = new RetiredTools()
  private readonly views: AgentViewCache

  constructor(
    readonly defaultMode: ToolPresentationMode,
    private readonly announce: () => void,
    private readonly warn: (message: string) => void = () => {},
  ) {
    const source: ViewSource = {
      admitted: (agent) => this.admitted(agent),
      modeOf: (agent) => this.modeOf(agent),
      transport: () => this.provider?.transport,
      builtins: () => this.builtins,
      hides: (tool, agent) => this.deferral?.hides(tool, agent) === true,
    }
    this.views = new AgentViewCache((agent) => buildAgentView(source, agent))
  }

  /** Set the built-in tools and the deferral rules (once, by the runtime). */
  attach(builtins: readonly BuiltinTool[], deferral: Deferral): void {
    this.builtins = builtins
    this.deferral = deferral
    this.views.invalidate()
  }

  /**
   * Something views are built from changed (here, or in the deferral rules): drop every view
   * before announcing, so a `tools/changed` listener that reads already sees the new state.
   */
  changed(): void {
    this.views.invalidate()
    this.announce()
  }

  /** `agent`'s current view (built on first use after a change). */
  view(agent: ScopeKey | undefined): AgentView {
    return this.views.of(agent)
  }

  /** Drop a disposed agent scope's view; the next use (if any) builds it again. */
  forgetView(agent: ScopeKey): void {
    this.views.drop(agent)
  }

  /** How many agent views are kept (bounded; see `MAX_AGENT_VIEWS`). */
  get viewCount(): number {
    return this.views.size
  }

  private layer(agent: ScopeKey): ScopeLayer {
    let layer = this.layers.get(agent)
    if (layer === undefined) {
      layer = { tools: new Map(), masks: [], mode: undefined }
      this.layers.set(agent, layer)
    }
    return layer
  }

  private prune(agent: ScopeKey): void {
    const layer = this.layers.get(agent)
    if (layer && layer.tools.size === 0 && layer.masks.length === 0 && layer.mode === undefined) {
      this.layers.delete(agent)
    }
  }

  /** Add a compiled tool to the global layer or an agent's layer. Throws on a duplicate or reserved name. */
  add(tool: CompiledTool, agent: ScopeKey | undefined): () => void {
    if (tool.name === RESERVED_TOOL_NAME) {
      throw new ToolRegistrationError(`\`${RESERVED_TOOL_NAME}\` is reserved for the Code Mode transport`)
    }
    if (BUILTIN_TOOL_NAMES.has(tool.name)) {
      throw new ToolRegistrationError(`\`${tool.name}\` is reserved for the runtime's built-in tool`)
    }
    const map = agent === undefined ? this.globals : this.layer(agent).tools
    if (map.has(tool.name)) {
      const where = agent === undefined ? 'globally' : `in scope \`${agent}\``
      throw new ToolRegistrationError(`tool \`${tool.name}\` is already registered ${where}`)
    }
    map.set(tool.name, tool)
    this.retired.forget(tool.name, agent)
    this.announceShadow(tool.name, agent)
    this.changed()
    return () => {
      if (map.get(tool.name) !== tool) return
      map.delete(tool.name)
      if (agent !== undefined) this.prune(agent)
      this.changed()
    }
  }

  /**
   * Shadowing across layers is the defined precedence (an agent's own tool wins over a global of
   * the same name, for that agent only) but never silent: it is reported naming both layers.
   * Masks still apply to the name either way (see {@link admitted}).
   */
  private announceShadow(name: string, agent: ScopeKey | undefined): void {
    if (agent !== undefined) {
      if (this.globals.has(name))
        this.warn(
          `tool \`${name}\` registered in scope \`${agent}\` shadows the global \`${name}\` for that agent`,
        )
      return
    }
    for (const [key, layer] of this.layers) {
      if (layer.tools.has(name))
        this.warn(`global tool \`${name}\` is shadowed in scope \`${key}\` by that agent's own \`${name}\``)
    }
  }

  /**
   * Why a tool the agent could have called is gone (its owner was disposed), if remembered: its
   * own layer's, else a global one its masks admit (a masked name is never revealed).
   */
  retiredReason(name: string, agent: ScopeKey | undefined): string | undefined {
    const own = agent === undefined ? undefined : this.retired.reasonFor(name, agent)
    if (own !== undefined) return own
    const layer = agent === undefined ? undefined : this.layers.get(agent)
    return this.admits(layer, name) ? this.retired.reasonFor(name, undefined) : undefined
  }

  private admits(layer: ScopeLayer | undefined, name: string): boolean {
    if (layer === undefined) return true
    for (const mask of layer.masks) {
      if (mask.names.has(name) !== mask.allow) return false
    }
    return true
  }

  /** The tool `name` as `agent` sees it: a present built-in, its own, or an admitted global, loaded if deferred. */
  resolve(name: string, agent: ScopeKey | undefined): CompiledTool | undefined {
    const entry = this.views.of(agent).names.get(name)
    return entry === DEFERRED ? undefined : entry
  }

  /**
   * Admitted globals then admitted local tools, before deferral: for each name, the agent's own
   * tool first, then the global. The agent's masks apply to the name whichever layer — and so
   * whichever plugin — it came from: a denied name stays denied when a scoped plugin (an MCP
   * server with `prefix: ''`) registers it again.
   */
  private admitted(agent: ScopeKey | undefined): CompiledTool[] {
    const layer = agent === undefined ? undefined : this.layers.get(agent)
    const out: CompiledTool[] = []
    for (const [name, tool] of this.globals) {
      if (layer?.tools.has(name)) continue
      if (this.admits(layer, name)) out.push(tool)
    }
    if (layer) for (const [name, tool] of layer.tools) if (this.admits(layer, name)) out.push(tool)
    return out
  }

  /** Add a visibility mask for `agent` over every name it resolves (globals and its own), snapshotted now. */
  restrict(agent: ScopeKey, filter: ToolRestriction): () => void {
    const hasAllow = typeof filter === 'object' && filter !== null && 'allow' in filter
    const hasDeny = typeof filter === 'object' && filter !== null && 'deny' in filter
    if (hasAllow === hasDeny) {
      throw new ToolRegistrationError('restrict() takes exactly one of `allow` or `deny`')
    }
    const list: unknown = hasAllow ? (filter as { allow: unknown }).allow : (filter as { deny: unknown }).deny
    if (!Array.isArray(list) || list.length === 0) {
      throw new ToolRegistrationError('restrict() needs a non-empty list of tool names')
    }
    const layer = this.layers.get(agent)
    const names = new Set<string>()
    for (const name of list) {
      if (typeof name !== 'string') throw new ToolRegistrationError('restrict() names must be strings')
      if (name === RESERVED_TOOL_NAME) {
        throw new ToolRegistrationError(`\`${RESERVED_TOOL_NAME}\` cannot be restricted`)
      }
      if (!this.globals.has(name) && layer?.tools.has(name) !== true)
        throw new ToolRegistrationError(`restrict(): unknown tool \`${name}\``)
      names.add(name)
    }
    const mask: Mask = { allow: hasAllow, names }
    const target = this.layer(agent)
    target.masks = [...target.masks, mask]
    this.changed()
    return () => {
      if (!target.masks.includes(mask)) return
      target.masks = target.masks.filter((m) => m !== mask)
      this.prune(agent)
      this.changed()
    }
  }

  /** Shadow the configured mode for one agent. Throws when the scope already declared one. */
  presentAs(agent: ScopeKey, mode: ToolPresentationMode): () => void {
    assertMode(mode)
    const layer = this.layer(agent)
    if (layer.mode !== undefined) {
      throw new ToolRegistrationError(`scope \`${agent}\` already declared a presentation mode`)
    }
    layer.mode = mode
    this.changed()
    return () => {
      if (layer.mode !== mode || this.layers.get(agent) !== layer) return
      layer.mode = undefined
      this.prune(agent)
      this.changed()
    }
  }

  /** The effective presentation mode of an agent (its `presentAs`, else the config mode). */
  modeOf(agent: ScopeKey | undefined): ToolPresentationMode {
    if (agent === undefined) return this.defaultMode
    return this.layers.get(agent)?.mode ?? this.defaultMode
  }

  /** Append a guard (global or agent-scoped). */
  addGuard(guard: ToolGuard, agent: ScopeKey | undefined): () => void {
    if (typeof guard !== 'function') throw new ToolRegistrationError('guard() takes a function')
    const entry: GuardEntry = { guard, agent }
    this.guards = [...this.guards, entry]
    return () => {
      this.guards = this.guards.filter((g) => g !== entry)
    }
  }

  /** Install the Code Mode provider. Only one at a time. */
  installProvider(installed: InstalledProvider): () => void {
    if (this.provider !== undefined) {
      throw new ToolRegistrationError('a Code Mode provider is already installed')
    }
    this.provider = installed
    this.changed()
    return () => {
      if (this.provider !== installed) return
      this.provider = undefined
      this.changed()
    }
  }
}

/** Throw unless `mode` is a presentation mode. */
export function assertMode(mode: unknown): asserts mode is ToolPresentationMode {
  if (mode !== 'native' && mode !== 'code' && mode !== 'both') {
    throw new ToolRegistrationError(
      `invalid presentation mode: ${String(mode)} (expected native, code or both)`,
    )
  }
}
