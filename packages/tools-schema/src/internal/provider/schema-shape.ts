import { SchemaDefinitionError } from '../../errors'
import { setOwn } from '../describe'

/** A schema object as the provider converters read it: any JSON object. */
export type SchemaObject = { readonly [key: string]: unknown }

/**
 * Keywords a provider dialect can turn into a shape (a type, a union, a reference, members).
 * A node with none of them is constrained, if at all, only by keywords neither dialect can
 * express (`not`, `if`, a bare `required`, `patternProperties`, typeless `items`, …): every JSON
 * type can pass those, so the converted node would have no `type`, which both providers refuse.
 */
const SHAPING = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'properties'] as const

/** True for a plain (non-array, non-null) object. */
export function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The node's `type` as a list (empty when absent). */
export function typesOf(node: SchemaObject): string[] {
  const type = node.type
  if (typeof type === 'string') return [type]
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : []
}

/**
 * True when no provider dialect can describe the node's shape and it travels as a JSON-encoded
 * string instead: `true`, a node without any shaping keyword (any JSON type, perhaps narrowed by
 * keywords the dialects cannot express, which validation enforces after the read-back), or an
 * object with no declared properties (a dictionary). Both directions use this one rule, so the
 * reshape is reversible.
 */
export function isOpaque(node: unknown): boolean {
  if (node === true) return true
  if (!isObject(node)) return false
  if (!SHAPING.some((key) => Object.hasOwn(node, key))) return true
  const types = typesOf(node)
  const objectOnly = types.length === 1 && types[0] === 'object'
  return (
    objectOnly &&
    !isObject(node.properties) &&
    node.additionalProperties !== false &&
    !Object.hasOwn(node, '$ref') &&
    !Object.hasOwn(node, 'anyOf') &&
    !Object.hasOwn(node, 'oneOf') &&
    !Object.hasOwn(node, 'allOf')
  )
}

/**
 * {@link isOpaque} for one dialect. Gemini also refuses an `OBJECT` whose `properties` are empty
 * ("should be non-empty for OBJECT type"), so below the root such an object travels as a JSON
 * string there too. Both directions ask this, so the reshape stays reversible.
 */
export function isOpaqueIn(node: unknown, dialect: 'openai-strict' | 'gemini'): boolean {
  if (isOpaque(node)) return true
  if (dialect !== 'gemini' || !isObject(node) || !isObject(node.properties)) return false
  const types = typesOf(node)
  return (
    types.length === 1 &&
    types[0] === 'object' &&
    Object.keys(node.properties).length === 0 &&
    !['$ref', 'anyOf', 'oneOf', 'allOf'].some((key) => Object.hasOwn(node, key))
  )
}

/** The change both converters record for a folded constraint-only union. */
export const CONSTRAINT_UNION_FOLDED =
  'union of constraint-only branches folded into the description (checked after the call)'

/**
 * True when `branches` (a node's `anyOf`/`oneOf`) only narrow the node's own shape: the node has
 * a type, members, values or a reference, and no branch has a shaping keyword (`anyOf` of
 * `{ required: ['a'] }` and `{ required: ['b'] }` beside `properties`). Neither dialect can say
 * that, so both converters fold such a union into the description, and reading arguments back
 * does not pick a branch for it (validation afterwards enforces it).
 */
export function isConstraintUnion(node: SchemaObject, branches: unknown): boolean {
  const ownShape = ['type', 'properties', 'enum', 'const', '$ref'].some((key) => Object.hasOwn(node, key))
  return (
    ownShape &&
    Array.isArray(branches) &&
    branches.length > 0 &&
    branches.every((branch) => isObject(branch) && !SHAPING.some((key) => Object.hasOwn(branch, key)))
  )
}

/**
 * A conservative, syntactic "the provider form of this schema takes a raw `null`": a `null`
 * type, a `null` in `enum` or `const`, or a branch of `anyOf`/`oneOf` that does (opaque nodes
 * never do: they are JSON strings). Decides whether a strict-mode `null` for an optional
 * property means "absent" (it does only when `null` is not a value there).
 */
export function acceptsNull(node: unknown, root: unknown): boolean {
  const seen = new Set<unknown>()
  const stack: unknown[] = [node]
  while (stack.length > 0) {
    const current = stack.pop()
    // an opaque node travels as a JSON string: its own `null` is the text "null", never a raw null
    if (!isObject(current) || seen.has(current) || isOpaque(current)) continue
    seen.add(current)
    if (typesOf(current).includes('null')) return true
    if (Array.isArray(current.enum) && current.enum.includes(null)) return true
    if (Object.hasOwn(current, 'const') && current.const === null) return true
    if (typeof current.$ref === 'string') {
      const target = resolvePointer(root, current.$ref)
      if (target !== undefined) stack.push(target)
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = current[key]
      if (Array.isArray(branches)) stack.push(...branches)
    }
  }
  return false
}

function unescapeToken(token: string): string {
  return decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~')
}

/** Resolve a local `$ref` (`#`, `#/…` pointer or `#anchor`) inside `root`; `undefined` if it does not resolve. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  if (ref === '#') return root
  if (!ref.startsWith('#/')) return findAnchor(root, ref.slice(1))
  let current: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    let token: string
    try {
      token = unescapeToken(raw)
    } catch {
      return undefined
    }
    if (Array.isArray(current)) current = current[Number(token)]
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token]
    else return undefined
  }
  return current
}

function findAnchor(root: unknown, anchor: string): unknown {
  const stack: unknown[] = [root]
  const seen = new Set<unknown>()
  while (stack.length > 0) {
    const current = stack.pop()
    if (typeof current !== 'object' || current === null || seen.has(current)) continue
    seen.add(current)
    if (isObject(current) && current.$anchor === anchor) return current
    stack.push(...Object.values(current))
  }
  return undefined
}

/** The name a `$ref` shows the model: its last pointer segment. */
export function refName(ref: string): string {
  const tail = ref.slice(ref.lastIndexOf('/') + 1)
  return tail.length > 0 && tail !== '#' ? tail : 'root'
}

/** Throw the registration-style error for a node that is not a schema at all. */
export function notASchema(path: string, node: unknown): never {
  const kind = Array.isArray(node) ? 'an array' : node === null ? 'null' : typeof node
  throw new SchemaDefinitionError(path, `a schema must be an object or a boolean, got ${kind}`)
}

/**
 * Merge the plain-object branches of `allOf` into the node (properties and `required` are
 * unioned); a branch that is only a `$ref` becomes the node's `$ref` when the node has none.
 * Returns the merged node and the branches that could not be merged.
 */
export function mergeAllOf(node: SchemaObject): { node: SchemaObject; rest: unknown[] } {
  const branches = node.allOf
  if (!Array.isArray(branches)) return { node, rest: [] }
  const merged: Record<string, unknown> = { ...node }
  delete merged.allOf
  const rest: unknown[] = []
  for (const branch of branches) {
    if (!isObject(branch)) {
      if (branch !== true) rest.push(branch)
      continue
    }
    const keys = Object.keys(branch)
    if (keys.length === 1 && typeof branch.$ref === 'string' && merged.$ref === undefined) {
      merged.$ref = branch.$ref
      continue
    }
    const clash = keys.some(
      (key) =>
        key !== 'properties' &&
        key !== 'required' &&
        key !== 'description' &&
        key !== 'title' &&
        Object.hasOwn(merged, key) &&
        JSON.stringify(merged[key]) !== JSON.stringify(branch[key]),
    )
    if (clash || typeof branch.$ref === 'string' || Array.isArray(branch.allOf)) {
      rest.push(branch)
      continue
    }
    for (const key of keys) {
      if (key === 'properties' && isObject(branch.properties)) {
        merged.properties = {
          ...(isObject(merged.properties) ? merged.properties : {}),
          ...branch.properties,
        }
      } else if (key === 'required' && Array.isArray(branch.required)) {
        const required = Array.isArray(merged.required) ? merged.required : []
        merged.required = [...new Set([...required, ...branch.required])]
      } else if (!Object.hasOwn(merged, key)) {
        setOwn(merged, key, branch[key])
      }
    }
  }
  return { node: merged, rest }
}

/** JSON Schema keywords that apply to one instance type only. */
const TYPED_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: [
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
  ],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
  ],
}

/**
 * One branch of a multi-type node (`type: ['string', 'array']` → the `string` branch): the
 * node's keywords that apply to that type, without the description (the union carries it).
 */
export function branchOfType(node: SchemaObject, type: string): SchemaObject {
  const own = new Set(TYPED_KEYWORDS[type === 'integer' ? 'number' : type] ?? [])
  const foreign = new Set(Object.values(TYPED_KEYWORDS).flat())
  const branch: Record<string, unknown> = { type }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'description' || key === 'anyOf' || key === 'oneOf') continue
    if (foreign.has(key) && !own.has(key)) continue
    setOwn(branch, key, value)
  }
  return branch
}

/**
 * The schema of an array's elements as the dialects show it: `items` when it is one schema;
 * otherwise (absent, a draft-07 tuple list, `false`) the elements travel as JSON strings.
 */
export function elementSchemaOf(node: SchemaObject): unknown {
  const items = node.items
  return items === true || isObject(items) ? items : true
}

/** The JSON Schema types of a node's `enum`/`const` values (`integer` folds into `number` when both occur). */
export function typesOfValues(node: SchemaObject): string[] {
  const values = Object.hasOwn(node, 'const') ? [node.const] : Array.isArray(node.enum) ? node.enum : []
  const types = new Set<string>()
  for (const value of values) {
    if (value === null) types.add('null')
    else if (Array.isArray(value)) types.add('array')
    else if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number')
    else types.add(typeof value)
  }
  if (types.has('integer') && types.has('number')) types.delete('integer')
  return [...types]
}
