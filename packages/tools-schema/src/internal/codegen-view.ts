/**
 * A tolerant reading of an arbitrary (possibly invalid or hostile) JSON Schema node for the
 * code generators: one node, one shape. Never throws and never invokes getters. Keywords a
 * type cannot express (bounds, `not`, conditionals) are left to `readDoc`; ignoring them gives
 * the widest sound type.
 */
import { type CodegenDoc, readDoc } from './codegen-doc'
import { copyWithout, denseItems, ownStringKeys, readOwn } from './codegen-own'
import { dialectFromUri, isPre2019 } from './dialect'

export type { CodegenDoc } from './codegen-doc'
export { readDescription, readDoc } from './codegen-doc'
export { readOwn } from './codegen-own'

export type CodegenView =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'any' }
  | { readonly kind: 'never' }
  | { readonly kind: 'scalar'; readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'null' }
  | { readonly kind: 'literals'; readonly type: string | undefined; readonly values: readonly unknown[] }
  | { readonly kind: 'array'; readonly items: unknown; readonly hasItems: boolean }
  | {
      readonly kind: 'tuple'
      readonly prefix: readonly unknown[]
      /** Schema of the items after the prefix; `false` when none may follow. */
      readonly rest: unknown
      /** How many leading items must be present (`minItems`, capped at the prefix length). */
      readonly required: number
    }
  | {
      readonly kind: 'object'
      readonly fields: readonly CodegenField[]
      readonly closed: boolean
      readonly hasProperties: boolean
      /** Schemas of the values of undeclared keys (`additionalProperties`, `patternProperties`). */
      readonly index: readonly unknown[]
    }
  | { readonly kind: 'union'; readonly branches: readonly unknown[] }
  | { readonly kind: 'intersection'; readonly branches: readonly unknown[] }
  | { readonly kind: 'ref'; readonly ref: string }

/** One declared property of an object view. */
export interface CodegenField {
  readonly name: string
  readonly node: unknown
  readonly required: boolean
  /** The property schema's annotations, when it has any worth showing. */
  readonly doc: CodegenDoc | undefined
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])
const TYPES = new Set([...SCALARS, 'object', 'array'])

/** Keywords that give a node a shape of its own (next to `allOf`/`anyOf`/`oneOf`). */
const SHAPE_KEYWORDS = [
  'type',
  'properties',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'enum',
  'const',
  '$ref',
]

const OBJECT_HINTS = ['properties', 'additionalProperties', 'patternProperties', 'required']
const ARRAY_HINTS = ['items', 'prefixItems']

function hasAny(node: object, keys: readonly string[]): boolean {
  return keys.some((key) => Object.hasOwn(node, key))
}

function branchesOf(node: object, key: string): unknown[] | undefined {
  const branches = denseItems(readOwn(node, key))
  return branches === undefined || branches.length === 0 ? undefined : branches
}

/** Whether keywords beside `$ref` apply in the document `root` (its `$schema`; 2020-12 when absent or unknown). */
export function refSiblingsApply(root: unknown): boolean {
  const uri = typeof root === 'object' && root !== null ? readOwn(root, '$schema') : undefined
  const dialect = typeof uri === 'string' ? dialectFromUri(uri) : undefined
  return dialect === undefined || !isPre2019(dialect)
}

/**
 * Reads a node for code generation. `refSiblings` says whether keywords beside `$ref` apply
 * (2019-09 and later, the default dialect) or are ignored (draft-04 to draft-07): it decides
 * whether `{ $ref, nullable: true }` admits null, exactly as the validator reads it.
 */
export function viewOf(node: unknown, refSiblings = true): CodegenView {
  if (node === true) return { kind: 'any' }
  if (node === false) return { kind: 'never' }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return { kind: 'unknown' }
  const ref = readOwn(node, '$ref')
  if (typeof ref === 'string') {
    if (refSiblings && readOwn(node, 'nullable') === true) {
      return { kind: 'union', branches: [{ $ref: ref }, { type: 'null' }] }
    }
    return { kind: 'ref', ref }
  }
  // A malformed combinator (not a non-empty array) makes the node unreadable.
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (Object.hasOwn(node, key) && branchesOf(node, key) === undefined) return { kind: 'unknown' }
  }
  // OpenAPI 3.0 / Gemini `nullable: true`.
  if (readOwn(node, 'nullable') === true) {
    return { kind: 'union', branches: [copyWithout(node, ['nullable']), { type: 'null' }] }
  }
  const allOf = branchesOf(node, 'allOf')
  if (allOf !== undefined) {
    const rest = copyWithout(node, ['allOf'])
    return { kind: 'intersection', branches: hasAny(rest, SHAPE_KEYWORDS) ? [rest, ...allOf] : allOf }
  }
  for (const key of ['anyOf', 'oneOf']) {
    const branches = branchesOf(node, key)
    if (branches === undefined) continue
    const rest = copyWithout(node, [key])
    // Siblings still apply: `{ type: 'object', properties, anyOf: [{ required: [a] }, …] }`.
    if (hasAny(rest, SHAPE_KEYWORDS) || hasAny(rest, ['anyOf', 'oneOf'])) {
      return { kind: 'intersection', branches: [rest, { [key]: branches }] }
    }
    return { kind: 'union', branches }
  }
  let type = readOwn(node, 'type')
  if (Array.isArray(type)) {
    const types = (denseItems(type) ?? []).filter((t): t is string => typeof t === 'string' && TYPES.has(t))
    if (types.length === 0) return { kind: 'unknown' }
    if (types.length > 1) {
      return { kind: 'union', branches: types.map((t) => copyWithout(node, ['type'], { type: t })) }
    }
    type = types[0]
  }
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) return { kind: 'unknown' }
  const enumValues = readOwn(node, 'enum')
  const hasConst = Object.hasOwn(node, 'const')
  if (enumValues !== undefined || hasConst) {
    const values = hasConst ? [readOwn(node, 'const')] : denseItems(enumValues)
    if (values === undefined || values.length === 0) return { kind: 'unknown' }
    return { kind: 'literals', type, values }
  }
  if (type === undefined) {
    if (hasAny(node, OBJECT_HINTS)) type = 'object'
    else if (hasAny(node, ARRAY_HINTS)) type = 'array'
    else return { kind: 'any' }
  }
  if (type === 'array') return arrayView(node)
  if (type === 'object') return objectView(node)
  return { kind: 'scalar', type: type as 'string' }
}

function arrayView(node: object): CodegenView {
  const items = readOwn(node, 'items')
  // 2020-12 `prefixItems` + `items`; draft-07 array-form `items` + `additionalItems`.
  const prefix =
    denseItems(readOwn(node, 'prefixItems')) ?? (Array.isArray(items) ? denseItems(items) : undefined)
  if (prefix !== undefined && prefix.length > 0) {
    const rest = Array.isArray(items) ? readOwn(node, 'additionalItems') : items
    const minItems = readOwn(node, 'minItems')
    const required =
      typeof minItems === 'number' ? Math.max(0, Math.min(prefix.length, Math.floor(minItems))) : 0
    return { kind: 'tuple', prefix, rest: rest === undefined ? true : rest, required }
  }
  return { kind: 'array', items, hasItems: items !== undefined && !Array.isArray(items) }
}

function objectView(node: object): CodegenView {
  const properties = readOwn(node, 'properties')
  const requiredList = denseItems(readOwn(node, 'required')) ?? []
  const required = new Set(requiredList.filter((name): name is string => typeof name === 'string'))
  const fields: CodegenField[] = []
  const hasProperties = typeof properties === 'object' && properties !== null && !Array.isArray(properties)
  if (hasProperties) {
    for (const name of ownStringKeys(properties)) {
      const child = readOwn(properties, name)
      fields.push({ name, node: child, required: required.has(name), doc: readDoc(child) })
    }
  }
  const additional = readOwn(node, 'additionalProperties')
  const index: unknown[] = []
  const patterns = readOwn(node, 'patternProperties')
  if (typeof patterns === 'object' && patterns !== null && !Array.isArray(patterns)) {
    // Sorted: the order of `patternProperties` keys carries no meaning.
    for (const key of ownStringKeys(patterns).sort()) index.push(readOwn(patterns, key))
  }
  if (typeof additional === 'object' && additional !== null) index.push(additional)
  else if (index.length > 0 && additional !== false) index.push(true)
  return { kind: 'object', fields, closed: additional === false, hasProperties, index }
}
