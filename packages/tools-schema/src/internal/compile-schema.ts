import { type Dialect, dialectFromUri } from './dialect'
import { findJsonProblem } from './json-check'
import { formatSegment } from './path'
import { fail, readKeywords } from './read-keywords'
import { resolvePointer } from './resolve-ref'
import { allChildren, inPlaceChildren, SchemaNode } from './schema-node'

/** Options of `compileSchema`. */
export interface CompileOptions {
  /** `'assert'` makes the known `format` values assertions (default: annotations). */
  readonly formats?: 'annotate' | 'assert'
}

/** A compiled document: its root node and whether `$ref` makes the node graph cyclic. */
export interface CompiledSchema {
  readonly root: SchemaNode
  readonly dialect: Dialect
  /** True when some node reaches itself (recursive schema): values must be checked for cycles. */
  readonly recursive: boolean
}

interface PendingRef {
  readonly node: SchemaNode
  readonly ref: string
  readonly path: string
}

/** Reads the dialect from the root `$schema` (default 2020-12); an unknown one is an error. */
export function dialectOf(root: unknown): Dialect {
  if (typeof root !== 'object' || root === null) return '2020-12'
  const uri = (root as { $schema?: unknown }).$schema
  if (uri === undefined) return '2020-12'
  if (typeof uri !== 'string') fail('$.$schema', '$schema must be a string')
  const dialect = dialectFromUri(uri)
  if (dialect === undefined)
    fail('$.$schema', `unsupported dialect ${JSON.stringify(uri)}; expected draft-07, 2019-09 or 2020-12`)
  return dialect
}

/**
 * Checks a whole JSON Schema document (well-formed keywords, valid patterns, local resolvable
 * `$ref`s, no `$ref` loop that never descends into the value) and compiles it to a node graph.
 * Iterative: any nesting depth. Throws `UnsupportedJsonSchemaError` with a path.
 */
export function compileSchema(root: unknown, options: CompileOptions = {}): CompiledSchema {
  const problem = findJsonProblem(root)
  if (problem !== undefined) {
    let path = '$'
    for (const segment of problem.segments) path += formatSegment(segment)
    fail(path, `a schema must be JSON: ${problem.message.replace('expected JSON value, got', 'got')}`)
  }
  const dialect = dialectOf(root)
  const memo = new Map<object, SchemaNode>()
  const queue: { node: SchemaNode; raw: unknown; path: string }[] = []
  const refs: PendingRef[] = []
  const anchors = new Map<string, object>()
  const child = (raw: unknown, path: string): SchemaNode => {
    if (typeof raw === 'object' && raw !== null) {
      const known = memo.get(raw)
      if (known !== undefined) return known
    }
    const node = new SchemaNode(path)
    if (typeof raw === 'object' && raw !== null) memo.set(raw, node)
    queue.push({ node, raw, path })
    return node
  }
  const context = {
    dialect,
    assertFormats: options.formats === 'assert',
    child,
    ref: (node: SchemaNode, ref: string, path: string) => refs.push({ node, ref, path }),
    anchor: (name: string, raw: object, path: string) => {
      if (anchors.has(name) && anchors.get(name) !== raw)
        fail(path, `anchor ${JSON.stringify(name)} is defined twice`)
      anchors.set(name, raw)
    },
  }
  const rootNode = child(root, '$')
  const drain = () => {
    while (queue.length > 0) {
      const { node, raw, path } = queue.pop()!
      if (typeof raw === 'boolean') node.never = !raw
      else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw))
        readKeywords(node, raw as Record<string, unknown>, path, context)
      else fail(path, 'a schema must be an object or a boolean')
    }
  }
  drain()
  const rootId =
    typeof (root as { $id?: unknown } | null)?.$id === 'string' ? (root as { $id: string }).$id : undefined
  // Pointer targets may live outside keyword positions (e.g. `#/components/schemas/x`): they
  // are compiled on demand, which can add refs and anchors, hence the loop.
  for (let i = 0; i < refs.length; i++) {
    const { node, ref, path } = refs[i]!
    const target = resolvePointer(root, ref, rootId, anchors, path)
    node.ref = child(target.raw, target.path)
    drain()
  }
  const recursive = checkCycles(rootNode, memo)
  return { root: rootNode, dialect, recursive }
}

/**
 * Fails on a cycle of in-place applicators (`$ref`, allOf, anyOf, oneOf, not, if/then/else,
 * dependentSchemas): such a loop applies the same schema to the same value forever. Returns
 * whether the graph has any cycle at all (recursion through properties/items is fine).
 */
function checkCycles(root: SchemaNode, memo: Map<object, SchemaNode>): boolean {
  const nodes = new Set<SchemaNode>([root, ...memo.values()])
  if (findCycle(nodes, inPlaceChildren) !== undefined) {
    const at = findCycle(nodes, inPlaceChildren)!
    fail(
      at.location,
      'this $ref / applicator cycle applies a schema to the same value forever (no property or item is entered on the way)',
    )
  }
  return findCycle(nodes, allChildren) !== undefined
}

/** Iterative three-colour DFS: a node on a cycle, or undefined. */
function findCycle(
  nodes: Set<SchemaNode>,
  edges: (node: SchemaNode) => SchemaNode[],
): SchemaNode | undefined {
  const state = new Map<SchemaNode, 1 | 2>()
  for (const start of nodes) {
    if (state.has(start)) continue
    const stack: { node: SchemaNode; children: SchemaNode[]; next: number }[] = [
      { node: start, children: edges(start), next: 0 },
    ]
    state.set(start, 1)
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      if (frame.next === frame.children.length) {
        state.set(frame.node, 2)
        stack.pop()
        continue
      }
      const next = frame.children[frame.next++]!
      const seen = state.get(next)
      if (seen === 1) return next
      if (seen === undefined) {
        state.set(next, 1)
        stack.push({ node: next, children: edges(next), next: 0 })
      }
    }
  }
  return undefined
}
