import { ToolRegistrationError } from '../errors'
import type { CompiledTool } from '../internal/compiled-tool'
import { BUILTIN_TOOL_NAMES, type Deferral, RESERVED_TOOL_NAME } from '../registry'
import type { ScopeKey, ToolDeferral, ToolSchema } from '../types'

interface Rule {
  readonly agent: ScopeKey | undefined
  readonly matches: (tool: ToolSchema) => boolean
}

// Scope keys are non-empty strings, so '' can stand for the global layer's found set.
const GLOBAL = ''

/**
 * Which tools are deferred for whom, and which each agent has loaded through `tool_search`.
 * A global rule defers for every agent; a scoped rule for its agent only. Loaded tools are
 * per agent: one agent finding a tool shows it to no one else.
 */
export class DeferredTools implements Deferral {
  private rules: readonly Rule[] = []
  private readonly found = new Map<string, Set<string>>()

  constructor(
    private readonly changed: () => void,
    private readonly report: (message: string, error: unknown) => void,
  ) {}

  /** Add a rule from `names` or a predicate; returns its remover. */
  add(filter: ToolDeferral, agent: ScopeKey | undefined): () => void {
    const rule: Rule = { agent, matches: compile(filter) }
    this.rules = [...this.rules, rule]
    this.changed()
    return () => {
      if (!this.rules.includes(rule)) return
      this.rules = this.rules.filter((r) => r !== rule)
      // With no rule left, forget what was loaded: a later defer() starts from a clean slate.
      if (this.rules.length === 0) this.found.clear()
      this.changed()
    }
  }

  /** True when `tool` is deferred for `agent` and the agent has not loaded it. */
  hides(tool: CompiledTool, agent: ScopeKey | undefined): boolean {
    if (this.rules.length === 0) return false
    if (this.found.get(agent ?? GLOBAL)?.has(tool.name)) return false
    for (const rule of this.rules) {
      if (rule.agent !== undefined && rule.agent !== agent) continue
      try {
        if (rule.matches(tool.schema) === true) return true
      } catch (error) {
        this.report('a defer() predicate threw; the tool stays visible', error)
      }
    }
    return false
  }

  /**
   * Forget what `agent` loaded (its scope was disposed): a short-lived agent leaves no set
   * behind, and a later scope with the same key starts from the deferred list again. Only that
   * agent's view depends on its set; the caller drops it.
   */
  forget(agent: ScopeKey): void {
    this.found.delete(agent)
  }

  /** Load `names` for `agent`: visible from its next assembly, callable from now. */
  load(names: readonly string[], agent: ScopeKey | undefined): void {
    if (names.length === 0) return
    const key = agent ?? GLOBAL
    let set = this.found.get(key)
    if (set === undefined) {
      set = new Set()
      this.found.set(key, set)
    }
    for (const name of names) set.add(name)
    this.changed()
  }
}

function compile(filter: ToolDeferral): (tool: ToolSchema) => boolean {
  if (typeof filter === 'function') return filter
  if (!Array.isArray(filter) || filter.length === 0) {
    throw new ToolRegistrationError('defer() takes a non-empty list of tool names or a predicate')
  }
  const names = new Set<string>()
  for (const name of filter) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new ToolRegistrationError('defer() names must be non-empty strings')
    }
    if (name === RESERVED_TOOL_NAME || BUILTIN_TOOL_NAMES.has(name)) {
      throw new ToolRegistrationError(`\`${name}\` is reserved and cannot be deferred`)
    }
    names.add(name)
  }
  return (tool) => names.has(tool.name)
}
