import { dialectOf } from './compile-schema'
import {
  type Dialect,
  idKeyword,
  isPre2019,
  SCHEMA_KEYWORDS,
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
} from './dialect'
import { anchorKey, DOCUMENT_BASE, resolveUri } from './resolve-ref'
import { copyJson } from './schema-walk'

/**
 * For consumers that read `$ref` as a pointer into the root document (the code generators, the
 * provider converters): a document with nested `$id` resources, rewritten so that every `$ref`
 * that resolves by URI to a schema of the document is that schema's root pointer (`#/$defs/A`).
 * The same document (same object) when it has no nested `$id`, so callers that key caches by
 * schema identity keep working. Refs that do not resolve are left as they are (the consumers
 * already degrade those). Tolerant and iterative, like the walks it feeds.
 */
export function rootPointerRefs<T>(schema: T): T {
  const dialect = safeDialect(schema)
  const idKey = idKeyword(dialect)
  let nested: boolean
  try {
    nested = hasNestedId(schema, idKey)
  } catch {
    return schema // a Proxy that throws: the consumer degrades it as before
  }
  if (!nested) return schema
  const copy = copyJson(schema)
  const draft07 = isPre2019(dialect)
  const resources = new Map<string, string>([[DOCUMENT_BASE, '']])
  const anchors = new Map<string, string>()
  const sites: { node: Record<string, unknown>; base: string }[] = []
  const stack: { node: unknown; pointer: string; base: string }[] = [
    { node: copy, pointer: '', base: DOCUMENT_BASE },
  ]
  while (stack.length > 0) {
    const { node, pointer, base: parent } = stack.pop()!
    if (!isObject(node)) continue
    let base = parent
    const id = node[idKey]
    if (typeof id === 'string' && !(draft07 && (id.startsWith('#') || '$ref' in node))) {
      const resolved = resolveUri(id, parent)
      if (resolved !== undefined) {
        base = resolved.uri
        if (!resources.has(base)) resources.set(base, pointer)
      }
    }
    for (const key of ['$anchor', '$dynamicAnchor'])
      if (typeof node[key] === 'string') anchors.set(anchorKey(base, node[key] as string), pointer)
    if (draft07 && typeof id === 'string' && id.startsWith('#'))
      anchors.set(anchorKey(base, id.slice(1)), pointer)
    if (typeof node.$ref === 'string') sites.push({ node, base })
    const visit = (child: unknown, segments: (string | number)[]): void => {
      const tail = segments.map((segment) => `/${escapeToken(String(segment))}`).join('')
      stack.push({ node: child, pointer: pointer + tail, base })
    }
    for (const key of SCHEMA_KEYWORDS) {
      const value = node[key]
      if (key === 'items' && Array.isArray(value))
        value.forEach((item, i) => {
          visit(item, [key, i])
        })
      else visit(value, [key])
    }
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const value = node[key]
      if (Array.isArray(value))
        value.forEach((item, i) => {
          visit(item, [key, i])
        })
    }
    for (const key of [...SCHEMA_MAP_KEYWORDS, 'dependencies']) {
      const value = node[key]
      if (isObject(value)) for (const [name, member] of Object.entries(value)) visit(member, [key, name])
    }
  }
  for (const { node, base } of sites) {
    const resolved = resolveUri(node.$ref as string, base)
    const root = resolved === undefined ? undefined : resources.get(resolved.uri)
    if (resolved === undefined || root === undefined) continue
    let fragment: string
    try {
      fragment = decodeURIComponent(resolved.fragment)
    } catch {
      continue
    }
    const target =
      fragment === '' || fragment.startsWith('/')
        ? root + fragment
        : anchors.get(anchorKey(resolved.uri, fragment))
    if (target !== undefined) node.$ref = `#${encodeURI(target)}`
  }
  return copy
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

function safeDialect(schema: unknown): Dialect {
  try {
    return dialectOf(schema)
  } catch {
    return '2020-12'
  }
}

/**
 * Whether some schema below the root carries a string `$id` that is not a draft-07 anchor, in a
 * tree: a value that reaches an object twice (a cycle, or a shared subtree that copying would
 * multiply) is left alone, and each object is looked at once, so hostile values cannot stall this.
 */
function hasNestedId(schema: unknown, idKey: string): boolean {
  const seen = new Set<object>()
  const stack: unknown[] = [schema]
  let found = false
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null) continue
    if (seen.has(node)) return false
    seen.add(node)
    if (node !== schema && !Array.isArray(node)) {
      const id = (node as Record<string, unknown>)[idKey]
      if (typeof id === 'string' && !id.startsWith('#')) found = true
    }
    // Descriptors, not reads: an accessor is never invoked (the document is then left alone).
    for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(node))) {
      if (!('value' in descriptor)) return false
      if (typeof descriptor.value === 'object' && descriptor.value !== null) stack.push(descriptor.value)
    }
  }
  return found
}
