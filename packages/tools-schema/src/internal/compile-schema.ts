import { type Dialect, dialectFromUri, idKeyword, isPre2019 } from './dialect'
import {
  applyDynamicRef,
  assertStaticDynamicRef,
  countDynamicAnchors,
  type DynamicRef,
  readDynamicKeywords,
} from './dynamic-ref'
import { findJsonProblem } from './json-check'
import { nullableTarget } from './nullable'
import { formatSegment } from './path'
import { fail, readKeywords } from './read-keywords'
import { anchorKey, DOCUMENT_BASE, resolveRef, resolveUri, type SchemaResource } from './resolve-ref'
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
  /** The base URI in effect where the `$ref` stands. */
  readonly base: string
  /** Set for `$dynamicRef` / `$recursiveRef` (resolved statically, see dynamic-ref.ts). */
  readonly dynamic?: DynamicRef
}

const MAX_BASE_URI_LENGTH = 4096

/**
 * The base URI inside `raw`: its `$id` resolved against `parent` (registering the resource), or
 * `parent`. draft-04 spells it `id`. Up to draft-07 an id `"#name"` is an anchor and every
 * sibling of `$ref` is ignored, the id included. An `$id` that is no URI reference changes nothing (`lintSchema` is the place
 * for such style problems; the schema still works).
 */
function baseOf(
  raw: unknown,
  parent: string,
  dialect: Dialect,
  path: string,
  resources: Map<string, SchemaResource>,
): string {
  const key = idKeyword(dialect)
  const id = (raw as Record<string, unknown> | null)?.[key]
  if (typeof id !== 'string' || typeof raw !== 'object' || raw === null) return parent
  if (isPre2019(dialect) && (id.startsWith('#') || '$ref' in raw)) return parent
  const resolved = resolveUri(id, parent)
  if (resolved === undefined) return parent
  // A chain of relative `$id`s (`"a/"` nested 100,000 deep) grows the base at every level, and
  // resolving each against the last would cost the square of the depth.
  if (resolved.uri.length > MAX_BASE_URI_LENGTH)
    fail(
      `${path}.${key}`,
      `${key} ${JSON.stringify(id)} makes a base URI longer than ${MAX_BASE_URI_LENGTH} characters`,
    )
  const known = resources.get(resolved.uri)
  if (known !== undefined && known.raw !== raw && path !== '$')
    fail(`${path}.${key}`, `${key} ${JSON.stringify(id)} names a resource that another schema already names`)
  resources.set(resolved.uri, { raw, path })
  return resolved.uri
}

/** Reads the dialect from the root `$schema` (default 2020-12); an unknown one is an error. */
export function dialectOf(root: unknown): Dialect {
  if (typeof root !== 'object' || root === null) return '2020-12'
  const uri = (root as { $schema?: unknown }).$schema
  if (uri === undefined) return '2020-12'
  if (typeof uri !== 'string') fail('$.$schema', '$schema must be a string')
  const dialect = dialectFromUri(uri)
  if (dialect === undefined)
    fail(
      '$.$schema',
      `unsupported dialect ${JSON.stringify(uri)}; expected draft-04, draft-06, draft-07, 2019-09 or 2020-12`,
    )
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
  const queue: { node: SchemaNode; raw: unknown; path: string; base: string }[] = []
  const refs: PendingRef[] = []
  const anchors = new Map<string, object>()
  const resources = new Map<string, SchemaResource>([[DOCUMENT_BASE, { raw: root, path: '$' }]])
  // The base URI in effect inside the schema object being read.
  let base = DOCUMENT_BASE
  const child = (raw: unknown, path: string, parentBase: string = base): SchemaNode => {
    if (typeof raw === 'object' && raw !== null) {
      const known = memo.get(raw)
      if (known !== undefined) return known
    }
    const node = new SchemaNode(path)
    if (typeof raw === 'object' && raw !== null) memo.set(raw, node)
    queue.push({ node, raw, path, base: parentBase })
    return node
  }
  const context = {
    dialect,
    assertFormats: options.formats === 'assert',
    child: (raw: unknown, path: string) => child(raw, path),
    ref: (node: SchemaNode, ref: string, path: string) => refs.push({ node, ref, path, base }),
    anchor: (name: string, raw: object, path: string) => {
      const key = anchorKey(base, name)
      if (anchors.has(key) && anchors.get(key) !== raw)
        fail(path, `anchor ${JSON.stringify(name)} is defined twice`)
      anchors.set(key, raw)
    },
  }
  const rootNode = child(root, '$')
  const drain = () => {
    while (queue.length > 0) {
      const entry = queue.pop()!
      const { node, raw, path } = entry
      base = baseOf(raw, entry.base, dialect, path, resources)
      if (typeof raw === 'boolean') node.never = !raw
      else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        const record = raw as Record<string, unknown>
        // `nullable: true` beside an applicator: the keywords go to an inner node, null is let through.
        const target = nullableTarget(node, record, dialect)
        readKeywords(target, record, path, context)
        const dynamic = readDynamicKeywords(record, path, dialect, context.anchor)
        if (dynamic !== undefined)
          refs.push({ node: target, ref: dynamic.ref, path: dynamic.path, base, dynamic })
      } else fail(path, 'a schema must be an object or a boolean')
    }
  }
  drain()
  const dynamicTargets: { dynamic: DynamicRef; raw: unknown }[] = []
  // Pointer targets may live outside keyword positions (e.g. `#/components/schemas/x`): they
  // are compiled on demand, which can add refs, anchors and resources, hence the loop.
  for (let i = 0; i < refs.length; i++) {
    const pending = refs[i]!
    const target = resolveRef(pending.ref, pending.base, resources, anchors, pending.path)
    const targetNode = child(target.raw, target.path, target.base)
    if (pending.dynamic === undefined) pending.node.ref = targetNode
    else {
      applyDynamicRef(pending.node, targetNode)
      dynamicTargets.push({ dynamic: pending.dynamic, raw: target.raw })
    }
    drain()
  }
  let counts: Map<string, number> | undefined
  const anchorCounts = () => {
    counts ??= countDynamicAnchors(memo.keys())
    return counts
  }
  for (const { dynamic, raw } of dynamicTargets) assertStaticDynamicRef(dynamic, raw, anchorCounts)
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
