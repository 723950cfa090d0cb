import type { Dialect } from './dialect'
import { joinPath } from './path'
import { fail } from './read-keywords'
import type { SchemaNode } from './schema-node'

/**
 * `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) without a dynamic scope.
 *
 * Both resolve like `$ref`, then — only when the target carries the matching `$dynamicAnchor` /
 * `$recursiveAnchor: true` — move to the outermost schema resource of the evaluation path that
 * carries it too. In a document where only one schema carries that anchor, every such move lands
 * where it started, so the keyword is exactly a `$ref` (applied like an `allOf` member). When two
 * or more carry it (meta-schema extension), the target depends on the path taken: refused at
 * registration rather than silently resolved statically.
 */

/** Where a dynamic reference stands and what it asks for, checked once the document is read. */
export interface DynamicRef {
  readonly kind: '$dynamicRef' | '$recursiveRef'
  readonly ref: string
  readonly path: string
}

const PLAIN_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/

/** Reads `$dynamicAnchor` (also a plain anchor) and the dynamic reference of `raw`, if any. */
export function readDynamicKeywords(
  raw: Record<string, unknown>,
  path: string,
  dialect: Dialect,
  anchor: (name: string, raw: object, path: string) => void,
): DynamicRef | undefined {
  if (dialect === '2020-12') {
    if (raw.$dynamicAnchor !== undefined) {
      if (typeof raw.$dynamicAnchor !== 'string' || !PLAIN_NAME.test(raw.$dynamicAnchor))
        fail(joinPath(path, '$dynamicAnchor'), '$dynamicAnchor must be a plain name')
      anchor(raw.$dynamicAnchor, raw, path)
    }
    if (raw.$dynamicRef === undefined) return undefined
    if (typeof raw.$dynamicRef !== 'string')
      fail(joinPath(path, '$dynamicRef'), '$dynamicRef must be a string')
    return { kind: '$dynamicRef', ref: raw.$dynamicRef, path: joinPath(path, '$dynamicRef') }
  }
  if (dialect === '2019-09') {
    if (raw.$recursiveAnchor !== undefined && typeof raw.$recursiveAnchor !== 'boolean')
      fail(joinPath(path, '$recursiveAnchor'), '$recursiveAnchor must be a boolean')
    if (raw.$recursiveRef === undefined) return undefined
    if (raw.$recursiveRef !== '#') fail(joinPath(path, '$recursiveRef'), '$recursiveRef must be "#"')
    return { kind: '$recursiveRef', ref: '#', path: joinPath(path, '$recursiveRef') }
  }
  return undefined
}

/** The dynamic anchor a reference's target must carry to make the reference dynamic, if any. */
function anchorAsked(ref: DynamicRef): string | undefined {
  if (ref.kind === '$recursiveRef') return RECURSIVE
  const hash = ref.ref.indexOf('#')
  const name = hash < 0 ? '' : ref.ref.slice(hash + 1)
  return PLAIN_NAME.test(name) ? name : undefined
}

// `$recursiveAnchor: true` counted under a key no plain name can be.
const RECURSIVE = '#recursive'

/** How many compiled schemas carry each dynamic anchor (one pass, however many references ask). */
export function countDynamicAnchors(compiled: Iterable<object>): Map<string, number> {
  const counts = new Map<string, number>()
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)
  for (const raw of compiled) {
    const { $dynamicAnchor, $recursiveAnchor } = raw as {
      $dynamicAnchor?: unknown
      $recursiveAnchor?: unknown
    }
    if (typeof $dynamicAnchor === 'string') add($dynamicAnchor)
    if ($recursiveAnchor === true) add(RECURSIVE)
  }
  return counts
}

/**
 * Fails when `ref`, resolved statically to `target`, could resolve elsewhere in some dynamic
 * scope: its target carries the dynamic anchor and another compiled schema does as well.
 */
export function assertStaticDynamicRef(
  ref: DynamicRef,
  target: unknown,
  counts: () => ReadonlyMap<string, number>,
): void {
  const name = anchorAsked(ref)
  if (name === undefined) return
  const carried = target as { $dynamicAnchor?: unknown; $recursiveAnchor?: unknown } | null
  const carries = name === RECURSIVE ? carried?.$recursiveAnchor === true : carried?.$dynamicAnchor === name
  if (!carries) return
  const count = counts().get(name) ?? 0
  if (count > 1)
    fail(
      ref.path,
      `${ref.kind} ${JSON.stringify(ref.ref)} can resolve to any of ${count} schemas depending on the evaluation path; only a single matching ${ref.kind === '$dynamicRef' ? '$dynamicAnchor' : '$recursiveAnchor'} is supported`,
    )
}

/** Applies a statically resolved dynamic reference: the same as a `$ref`, as an `allOf` member. */
export function applyDynamicRef(node: SchemaNode, target: SchemaNode): void {
  node.allOf.push(target)
}
