import { allChildren, type SchemaNode } from './schema-node'

/** Schemas with more nodes than this are not code-generated (interpreter only). */
export const MAX_JIT_NODES = 2000

interface Visit {
  readonly node: SchemaNode
  readonly children: SchemaNode[]
  next: number
}

/**
 * The nodes the generated check declares as functions; every other node is inlined into its
 * parent. The root is one. A node reached again while it is still being visited (a back edge:
 * `$ref` recursion) is one, so every cycle of the graph passes through a function and inlining
 * always ends. A node with several parents is one unless it has no subschemas (inlining a
 * shared leaf costs a few lines; inlining a shared subtree could grow the code exponentially).
 * A `$ref` to anything else is inlined: a direct call saves nothing over straight-line code.
 * Returns undefined past {@link MAX_JIT_NODES} distinct nodes.
 */
export function functionNodes(root: SchemaNode): Set<SchemaNode> | undefined {
  const out = new Set<SchemaNode>([root])
  const parents = new Map<SchemaNode, number>([[root, 1]])
  const active = new Set<SchemaNode>([root])
  const stack: Visit[] = [{ node: root, children: allChildren(root), next: 0 }]
  while (stack.length > 0) {
    const visit = stack[stack.length - 1]!
    if (visit.next === visit.children.length) {
      stack.pop()
      active.delete(visit.node)
      continue
    }
    const child = visit.children[visit.next++]!
    const seen = parents.get(child)
    parents.set(child, (seen ?? 0) + 1)
    if (active.has(child)) out.add(child)
    if (seen !== undefined) continue
    if (parents.size > MAX_JIT_NODES) return undefined
    active.add(child)
    stack.push({ node: child, children: allChildren(child), next: 0 })
  }
  for (const [node, count] of parents) if (count > 1 && allChildren(node).length > 0) out.add(node)
  return out
}
