import { joinPath } from './path'
import { fail } from './read-keywords'

/** A `$ref` target: the raw subschema and its location in the document. */
export interface RefTarget {
  readonly raw: unknown
  readonly path: string
}

/**
 * Resolves a local `$ref` against the document root: `#`, a JSON pointer (`#/$defs/x`, with
 * `~0`/`~1` escapes and percent-encoding), or a plain-name anchor (`#name`). A ref that starts
 * with the root `$id` is local too. Anything else is remote and refused (no I/O, ever).
 */
export function resolvePointer(
  root: unknown,
  ref: string,
  rootId: string | undefined,
  anchors: ReadonlyMap<string, object>,
  where: string,
): RefTarget {
  let local = ref
  if (rootId !== undefined && rootId.length > 0 && ref.startsWith(rootId.replace(/#$/, ''))) {
    local = ref.slice(rootId.replace(/#$/, '').length)
    if (local === '') local = '#'
  }
  if (!local.startsWith('#'))
    fail(where, `remote $ref ${JSON.stringify(ref)} is not supported (only refs within the document)`)
  let fragment: string
  try {
    fragment = decodeURIComponent(local.slice(1))
  } catch {
    return fail(where, `$ref ${JSON.stringify(ref)} has malformed percent-encoding`)
  }
  if (fragment === '') return { raw: root, path: '$' }
  if (!fragment.startsWith('/')) {
    const target = anchors.get(fragment)
    if (target === undefined)
      fail(where, `$ref ${JSON.stringify(ref)}: no anchor ${JSON.stringify(fragment)} in the document`)
    return { raw: target, path: `$ anchor ${fragment}` }
  }
  let current: unknown = root
  let path = '$'
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
  return { raw: current, path }
}
