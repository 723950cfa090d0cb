import type { JsonValueSet } from './json-equal'
import type { LinearPattern } from './linear-pattern'

/** Bits of `SchemaNode.types` (0 = no `type` keyword: every JSON type). */
export const TYPE_STRING = 1
export const TYPE_NUMBER = 2
export const TYPE_INTEGER = 4
export const TYPE_BOOLEAN = 8
export const TYPE_NULL = 16
export const TYPE_ARRAY = 32
export const TYPE_OBJECT = 64

export const TYPE_BITS: Readonly<Record<string, number>> = {
  string: TYPE_STRING,
  number: TYPE_NUMBER,
  integer: TYPE_INTEGER,
  boolean: TYPE_BOOLEAN,
  null: TYPE_NULL,
  array: TYPE_ARRAY,
  object: TYPE_OBJECT,
}

/** A checker for a `format` value: true when the string conforms. */
export type FormatCheck = (value: string) => boolean

/**
 * One compiled schema (object or boolean): every assertion keyword pre-read into typed fields so
 * validation never looks at the raw schema again. Applicators point at other nodes; `$ref`
 * cycles are allowed (the graph may be cyclic), but never without descending into the value.
 */
export class SchemaNode {
  /** The `false` schema: nothing is valid. */
  never = false
  /** Union of TYPE_* bits; 0 when `type` is absent. */
  types = 0
  typeNames: readonly string[] = []
  enumValues: readonly unknown[] | undefined = undefined
  enumSet: JsonValueSet | undefined = undefined
  hasConst = false
  constValue: unknown = undefined
  constSet: JsonValueSet | undefined = undefined

  minimum: number | undefined = undefined
  maximum: number | undefined = undefined
  exclusiveMinimum: number | undefined = undefined
  exclusiveMaximum: number | undefined = undefined
  multipleOf: number | undefined = undefined

  minLength: number | undefined = undefined
  maxLength: number | undefined = undefined
  pattern: LinearPattern | undefined = undefined
  format: FormatCheck | undefined = undefined
  formatName = ''

  prefixItems: SchemaNode[] = []
  /** Schema for every item after `prefixItems` (2020-12 `items`, older `additionalItems`). */
  items: SchemaNode | undefined = undefined
  minItems: number | undefined = undefined
  maxItems: number | undefined = undefined
  uniqueItems = false
  contains: SchemaNode | undefined = undefined
  minContains = 1
  maxContains: number | undefined = undefined

  propertyKeys: string[] = []
  propertyNodes: SchemaNode[] = []
  properties: Map<string, SchemaNode> | undefined = undefined
  required: string[] = []
  patternProperties: { readonly regex: LinearPattern; readonly source: string; readonly node: SchemaNode }[] =
    []
  additionalProperties: SchemaNode | undefined = undefined
  propertyNames: SchemaNode | undefined = undefined
  minProperties: number | undefined = undefined
  maxProperties: number | undefined = undefined
  dependentRequired: { readonly key: string; readonly names: string[] }[] = []
  dependentSchemas: { readonly key: string; readonly node: SchemaNode }[] = []

  ref: SchemaNode | undefined = undefined
  allOf: SchemaNode[] = []
  anyOf: SchemaNode[] = []
  oneOf: SchemaNode[] = []
  not: SchemaNode | undefined = undefined
  ifNode: SchemaNode | undefined = undefined
  thenNode: SchemaNode | undefined = undefined
  elseNode: SchemaNode | undefined = undefined

  /** True when any array / object keyword is present (otherwise containers are only JSON-checked). */
  arrayKeywords = false
  objectKeywords = false
  /** Where this node is in the schema document (for compile errors and messages). */
  readonly location: string

  constructor(location: string) {
    this.location = location
  }
}

/** The in-place applicators of a node: subschemas applied to the same value. */
export function inPlaceChildren(node: SchemaNode): SchemaNode[] {
  const out = [...node.allOf, ...node.anyOf, ...node.oneOf]
  for (const child of [node.ref, node.not, node.ifNode, node.thenNode, node.elseNode])
    if (child !== undefined) out.push(child)
  for (const entry of node.dependentSchemas) out.push(entry.node)
  return out
}

/** Every subschema of a node (in-place and descending). */
export function allChildren(node: SchemaNode): SchemaNode[] {
  const out = inPlaceChildren(node)
  out.push(...node.prefixItems, ...node.propertyNodes)
  for (const child of [node.items, node.contains, node.additionalProperties, node.propertyNames]) {
    if (child !== undefined) out.push(child)
  }
  for (const entry of node.patternProperties) out.push(entry.node)
  return out
}
