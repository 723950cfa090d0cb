import { joinPath } from './path'
import { fail } from './read-keywords'

/**
 * `$ref` resolution by URI, as JSON Schema defines it: every `$id` starts a schema resource with
 * its own base URI (resolved against the enclosing one), a `$ref` is resolved against the base in
 * effect where it stands, and the result names a resource of this document plus a fragment (a
 * JSON pointer into that resource or a plain-name anchor). A URI no resource of the document has
 * is remote and refused (no I/O, ever).
 */

/** The base of a document without a root `$id` (never fetched; only compared). */
export const DOCUMENT_BASE = 'https://dsh-tools.invalid/schema.json'

/** A `$ref` target: the raw subschema, its location in the document and its resource's base. */
export interface RefTarget {
  readonly raw: unknown
  readonly path: string
  readonly base: string
}

/** A schema resource of the document: the subschema whose `$id` (or the root) names it. */
export interface SchemaResource {
  readonly raw: unknown
  readonly path: string
}

/** `reference` resolved against `base`, split at `#`; undefined when it is not a URI reference. */
export function resolveUri(reference: string, base: string): { uri: string; fragment: string } | undefined {
  let href: string
  try {
    href = new URL(reference, base).href
  } catch {
    return undefined
  }
  const hash = href.indexOf('#')
  return hash < 0 ? { uri: href, fragment: '' } : { uri: href.slice(0, hash), fragment: href.slice(hash + 1) }
}

/** The key of anchor `name` of the resource `uri`. */
export function anchorKey(uri: string, name: string): string {
  return `${uri}#${name}`
}

/**
 * Resolves `ref` (standing where `base` is in effect) to a subschema of the document: the
 * resource it names, then `#` / a JSON pointer (`~0`/`~1` escapes, percent-encoding) / an anchor.
 */
export function resolveRef(
  ref: string,
  base: string,
  resources: ReadonlyMap<string, SchemaResource>,
  anchors: ReadonlyMap<string, object>,
  where: string,
): RefTarget {
  const resolved = resolveUri(ref, base)
  if (resolved === undefined) fail(where, `$ref ${JSON.stringify(ref)} is not a URI reference`)
  const resource = resources.get(resolved!.uri)
  if (resource === undefined)
    fail(where, `remote $ref ${JSON.stringify(ref)} is not supported (only refs within the document)`)
  const { uri } = resolved!
  let fragment: string
  try {
    fragment = decodeURIComponent(resolved!.fragment)
  } catch {
    return fail(where, `$ref ${JSON.stringify(ref)} has malformed percent-encoding`)
  }
  if (fragment === '') return { raw: resource!.raw, path: resource!.path, base: uri }
  if (!fragment.startsWith('/')) {
    const target = anchors.get(anchorKey(uri, fragment))
    if (target === undefined)
      fail(where, `$ref ${JSON.stringify(ref)}: no anchor ${JSON.stringify(fragment)} in the document`)
    return { raw: target, path: `$ anchor ${fragment}`, base: uri }
  }
  let current: unknown = resource!.raw
  let path = resource!.path
  for (const escaped of fragment.slice(1).split('/')) {
    const segment = escaped.replace(/~1/g, '/').replace(/~0/g, '~')
    const container = current as Record<string, unknown> | unknown[] | null
    const found =
      typeof container === 'object' && container !== null && Object.hasOwn(container, segment)
        ? (container as Record<string, unknown>)[segment]
        : undefined
    if (found === undefined || (Array.isArray(container) && !/^(?:0|[1-9]\d*)$/.test(segment)))
      fail(where, `$ref ${JSON.stringify(ref)} does not resolve (no ${JSON.stringify(segment)} at ${path})`)
    current = found
    path = joinPath(path, Array.isArray(container) ? Number(segment) : segment)
  }
  if (
    typeof current !== 'boolean' &&
    (typeof current !== 'object' || current === null || Array.isArray(current))
  )
    fail(where, `$ref ${JSON.stringify(ref)} points at ${path}, which is not a schema`)
  return { raw: current, path, base: uri }
}
