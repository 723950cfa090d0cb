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

/** The anchor a dynamic reference's target must carry to make it dynamic, as a predicate. */
function carriesAnchor(ref: DynamicRef): (raw: unknown) => boolean {
  if (ref.kind === '$recursiveRef')
    return (raw) => (raw as { $recursiveAnchor?: unknown } | null)?.$recursiveAnchor === true
  const hash = ref.ref.indexOf('#')
  const name = hash < 0 ? '' : ref.ref.slice(hash + 1)
  return (raw) =>
    PLAIN_NAME.test(name) && (raw as { $dynamicAnchor?: unknown } | null)?.$dynamicAnchor === name
}

/**
 * Fails when `ref`, resolved statically to `target`, could resolve elsewhere in some dynamic
 * scope: its target carries the dynamic anchor and another schema of `compiled` does as well.
 */
export function assertStaticDynamicRef(ref: DynamicRef, target: unknown, compiled: Iterable<object>): void {
  const carries = carriesAnchor(ref)
  if (!carries(target)) return
  let count = 0
  for (const raw of compiled) if (carries(raw)) count++
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
