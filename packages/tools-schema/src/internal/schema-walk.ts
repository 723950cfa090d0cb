import { SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from './dialect'
import { joinPath } from './path'

/** A schema object found by `walkSchemas`, with its path. */
export interface SchemaSite {
  readonly node: Record<string, unknown>
  readonly path: string
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Every schema object of a document reachable through keyword positions (not through unknown
 * keywords), root first, iteratively. Tolerant: malformed positions are skipped, not reported.
 */
export function walkSchemas(root: unknown): SchemaSite[] {
  const out: SchemaSite[] = []
  const seen = new Set<object>()
  const stack: SchemaSite[] = isObject(root) ? [{ node: root, path: '$' }] : []
  while (stack.length > 0) {
    const site = stack.pop()!
    if (seen.has(site.node)) continue
    seen.add(site.node)
    out.push(site)
    const { node, path } = site
    const visit = (value: unknown, at: string) => {
      if (isObject(value)) stack.push({ node: value, path: at })
    }
    for (const key of SCHEMA_KEYWORDS) {
      const value = node[key]
      if (key === 'items' && Array.isArray(value))
        for (let i = 0; i < value.length; i++) visit(value[i], joinPath(joinPath(path, key), i))
      else visit(value, joinPath(path, key))
    }
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const value = node[key]
      if (Array.isArray(value))
        for (let i = 0; i < value.length; i++) visit(value[i], joinPath(joinPath(path, key), i))
    }
    for (const key of [...SCHEMA_MAP_KEYWORDS, 'dependencies']) {
      const value = node[key]
      if (isObject(value))
        for (const [name, member] of Object.entries(value)) visit(member, joinPath(joinPath(path, key), name))
    }
  }
  return out
}

/** A deep, mutable copy of a JSON document, made iteratively (any depth). */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  const rootCopy = (Array.isArray(value) ? [] : {}) as Record<string, unknown>
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [
    [value as Record<string, unknown>, rootCopy],
  ]
  while (stack.length > 0) {
    const [source, target] = stack.pop()!
    for (const key of Object.keys(source)) {
      const member = source[key]
      if (typeof member === 'object' && member !== null) {
        const copy = (Array.isArray(member) ? [] : {}) as Record<string, unknown>
        Object.defineProperty(target, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        })
        stack.push([member as Record<string, unknown>, copy])
      } else
        Object.defineProperty(target, key, {
          value: member,
          enumerable: true,
          writable: true,
          configurable: true,
        })
    }
  }
  return rootCopy as T
}
