/**
 * Per-tool memo of rendered SDK fragments, so an assembly only sorts and concatenates.
 */
import type { ToolSchema } from '@dsh/tools-core'

interface Entry<F> {
  readonly description: string
  readonly outputSchema: object
  readonly fragment: F
}

/**
 * Caches one rendered fragment per tool, keyed weakly by the tool's `parameters` object (held
 * by its definition, so the entry dies with the definition) and then by name. A hit also
 * requires the same description and output schema object, so a changed tool re-renders.
 */
export class FragmentCache<F> {
  private readonly entries = new WeakMap<object, Map<string, Entry<F>>>()

  /** @param build — renders one tool's fragment; must be deterministic. */
  constructor(private readonly build: (tool: ToolSchema) => F) {}

  /** The cached fragment of `tool`, rendering it on a miss. */
  get(tool: ToolSchema): F {
    let byName = this.entries.get(tool.parameters)
    if (byName === undefined) {
      byName = new Map()
      this.entries.set(tool.parameters, byName)
    }
    const hit = byName.get(tool.name)
    if (hit !== undefined && hit.description === tool.description && hit.outputSchema === tool.outputSchema) {
      return hit.fragment
    }
    const fragment = this.build(tool)
    byName.set(tool.name, { description: tool.description, outputSchema: tool.outputSchema, fragment })
    return fragment
  }
}

/** The tools sorted by name (UTF-16 code unit order: lexicographic and locale-independent). */
export function sortByName(tools: readonly ToolSchema[], exclude: string): ToolSchema[] {
  const sorted: ToolSchema[] = []
  for (const tool of tools) if (tool.name !== exclude) sorted.push(tool)
  return sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
