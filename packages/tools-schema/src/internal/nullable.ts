import { type Dialect, isPre2019 } from './dialect'
import { JsonValueSet } from './json-equal'
import { SchemaNode, TYPE_NULL } from './schema-node'

/**
 * OpenAPI 3.0's `nullable: true` ("this schema, or null"), read in every dialect: JSON Schema has
 * no keyword of that name, so it has no other meaning, and the generated SDK types already show
 * such a field as `… | null`. The same rule as `normalizeSchema`: `null` joins `type` and `enum`;
 * beside a keyword that could still refuse null, the node becomes `anyOf: [keywords, null]`.
 */

// Keywords that can refuse null whatever `type` says (`enum` gains a null member instead).
const NULL_REFUSING = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'const',
]

/**
 * The node that receives `raw`'s keywords: `node` itself, or (for `nullable: true` beside a
 * null-refusing keyword) a new inner node that `node` now joins with the null type in an `anyOf`.
 * Up to draft-07 the siblings of `$ref` are ignored, `nullable` included.
 */
export function nullableTarget(node: SchemaNode, raw: Record<string, unknown>, dialect: Dialect): SchemaNode {
  if (raw.nullable !== true) return node
  if (isPre2019(dialect) && raw.$ref !== undefined) return node
  if (!NULL_REFUSING.some((key) => raw[key] !== undefined)) return node
  const inner = new SchemaNode(node.location)
  const orNull = new SchemaNode(node.location)
  orNull.types = TYPE_NULL
  orNull.typeNames = ['null']
  node.anyOf.push(inner, orNull)
  return inner
}

/** `nullable: true` on a node whose `type` and `enum` are read: null joins both. */
export function addNullMember(node: SchemaNode): void {
  if (node.types !== 0 && (node.types & TYPE_NULL) === 0) {
    node.types |= TYPE_NULL
    node.typeNames = [...node.typeNames, 'null']
  }
  if (node.enumValues !== undefined && !node.enumValues.includes(null)) {
    node.enumValues = [...node.enumValues, null]
    node.enumSet = new JsonValueSet(node.enumValues)
  }
}
