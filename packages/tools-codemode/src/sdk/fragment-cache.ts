/**
 * Per-tool memo of rendered SDK fragments, so an assembly only sorts and concatenates.
 */
import type { ToolSchema } from '@dsh/tools-core'

interface Entry<F> {
  readonly description: string
  readonly outputSchema: object
  readonly fragment: F
}

/** Objects known to be deep-frozen (a deep-frozen tree can never change, so the answer is final). */
const deepFrozen = new WeakSet<object>()

/**
 * Whether `root` and everything reachable from it is frozen. Iterative (any depth); a `true`
 * answer is remembered, a `false` one is not (the tree may still be frozen later).
 */
function isDeepFrozen(root: object): boolean {
  if (deepFrozen.has(root)) return true
  const stack: unknown[] = [root]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null || seen.has(node) || deepFrozen.has(node)) continue
    if (!Object.isFrozen(node)) return false
    seen.add(node)
    for (const key of Object.keys(node)) stack.push((node as Record<string, unknown>)[key])
  }
  deepFrozen.add(root)
  return true
}

/**
 * Caches one rendered fragment per tool, keyed weakly by the tool's `parameters` object (held
 * by its definition, so the entry dies with the definition) and then by name. A hit also
 * requires the same description and output schema object, so a changed tool re-renders.
 * Only deep-frozen schemas are cached (the registry's `schemas()` are): a mutable schema could
 * change in place under the same object, so it is rendered afresh every time.
 */
export class FragmentCache<F> {
  private readonly entries = new WeakMap<object, Map<string, Entry<F>>>()

  /** @param build — renders one tool's fragment; must be deterministic. */
  constructor(private readonly build: (tool: ToolSchema) => F) {}

  /** The cached fragment of `tool`, rendering it on a miss. */
  get(tool: ToolSchema): F {
    let byName = this.entries.get(tool.parameters)
    const hit = byName?.get(tool.name)
    if (hit !== undefined && hit.description === tool.description && hit.outputSchema === tool.outputSchema) {
      return hit.fragment
    }
    const fragment = this.build(tool)
    if (isDeepFrozen(tool.parameters) && isDeepFrozen(tool.outputSchema)) {
      if (byName === undefined) {
        byName = new Map()
        this.entries.set(tool.parameters, byName)
      }
      byName.set(tool.name, { description: tool.description, outputSchema: tool.outputSchema, fragment })
    }
    return fragment
  }
}

/** The tools sorted by name (UTF-16 code unit order: lexicographic and locale-independent). */
export function sortByName(tools: readonly ToolSchema[], exclude: string): ToolSchema[] {
  const sorted: ToolSchema[] = []
  for (const tool of tools) if (tool.name !== exclude) sorted.push(tool)
  return sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
