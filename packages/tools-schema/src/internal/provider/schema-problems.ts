import { joinPath } from '../path'
import { isObject, type SchemaObject } from './schema-shape'

/** One rule of a provider's schema documentation that a schema breaks. */
export interface ProviderSchemaProblem {
  readonly path: string
  readonly message: string
}

/** A schema node met by a checker walk, with its object nesting depth. */
export interface CheckedNode {
  readonly node: unknown
  readonly path: string
  readonly depth: number
}

/** Keywords whose value is one subschema, and whose value is a map or list of them. */
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']
const MAP = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems']

/**
 * Visit every subschema of `root` (stack-safe), counting object nesting: a node whose
 * properties are nested objects is one level deeper than its parent.
 */
export function walkSchema(root: unknown, visit: (checked: CheckedNode) => void): void {
  const stack: CheckedNode[] = [{ node: root, path: '$', depth: 1 }]
  while (stack.length > 0) {
    const checked = stack.pop()!
    visit(checked)
    const node = checked.node
    if (!isObject(node)) continue
    const push = (child: unknown, path: string, deeper: boolean) =>
      stack.push({ node: child, path, depth: checked.depth + (deeper ? 1 : 0) })
    for (const key of SINGLE) {
      if (isObject(node[key])) push(node[key], joinPath(checked.path, key), key === 'items')
    }
    for (const key of MAP) {
      const map = node[key]
      if (!isObject(map)) continue
      for (const [name, child] of Object.entries(map)) {
        push(child, joinPath(joinPath(checked.path, key), name), key === 'properties')
      }
    }
    for (const key of LIST) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      list.forEach((child, index) => {
        push(child, joinPath(joinPath(checked.path, key), index), false)
      })
    }
  }
}

/** The object keys of a node that are not in `allowed`. */
export function unknownKeys(node: SchemaObject, allowed: ReadonlySet<string>): string[] {
  return Object.keys(node).filter((key) => !allowed.has(key))
}
