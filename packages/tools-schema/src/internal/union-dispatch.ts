import { isScalarValue } from './json-equal'
import { type SchemaNode, TYPE_INTEGER, TYPE_NUMBER, TYPE_OBJECT } from './schema-node'

/**
 * Facts about an `anyOf`/`oneOf` branch list that let the generated check try one branch
 * instead of all of them. Both are sound only because each branch is a conjunction: whatever
 * a branch demands, any value it accepts has.
 */

/** A required property whose scalar value tells which single branch can match. */
export interface Discriminator {
  readonly key: string
  /** Per branch, the scalar values of `key` it accepts (pairwise disjoint across branches). */
  readonly values: readonly (readonly (string | number | boolean | null)[])[]
}

type Scalar = string | number | boolean | null

// How far `$ref`/`allOf` are followed looking for the tag (schemas from generators nest 1–2 deep).
const MAX_FOLLOW = 4

/** The scalar values a property node demands, or undefined when it allows more. */
function demandedScalars(node: SchemaNode): readonly Scalar[] | undefined {
  if (node.constSet !== undefined)
    return isScalarValue(node.constValue) ? [node.constValue as Scalar] : undefined
  if (node.enumValues?.every(isScalarValue)) return node.enumValues as Scalar[]
  return undefined
}

/**
 * The values of `key` that every value valid against `node` has, where `node` also demands an
 * object with `key` present; undefined when `node` does not demand that.
 */
function tagValues(node: SchemaNode, key: string, follow: number): readonly Scalar[] | undefined {
  if (node.types === TYPE_OBJECT && node.required.includes(key)) {
    const property = node.properties?.get(key)
    const values = property === undefined ? undefined : demandedScalars(property)
    if (values !== undefined) return values
  }
  if (follow === 0) return undefined
  for (const part of node.ref === undefined ? node.allOf : [node.ref, ...node.allOf]) {
    const values = tagValues(part, key, follow - 1)
    if (values !== undefined) return values
  }
  return undefined
}

/** Candidate tag names: properties the first branch (or what it refers to) declares. */
function candidateKeys(node: SchemaNode, follow: number, out: Set<string>): Set<string> {
  for (const key of node.required) out.add(key)
  if (follow > 0)
    for (const part of node.ref === undefined ? node.allOf : [node.ref, ...node.allOf])
      candidateKeys(part, follow - 1, out)
  return out
}

/**
 * A property every branch requires with scalar `const`/`enum` values disjoint across branches:
 * a value can then only match the branch its tag names. Undefined when there is none (or fewer
 * than two branches).
 */
export function findDiscriminator(branches: readonly SchemaNode[]): Discriminator | undefined {
  if (branches.length < 2) return undefined
  for (const key of candidateKeys(branches[0]!, MAX_FOLLOW, new Set())) {
    const seen = new Set<Scalar>()
    const values: (readonly Scalar[])[] = []
    for (const branch of branches) {
      const tags = tagValues(branch, key, MAX_FOLLOW)
      // Set membership is SameValueZero: 0 and -0 collide, as JSON equality wants.
      if (tags === undefined || tags.some((tag) => seen.has(tag))) break
      for (const tag of tags) seen.add(tag)
      values.push(tags)
    }
    if (values.length === branches.length) return { key, values }
  }
  return undefined
}

/** The JSON types a `types` mask admits, with number and integer made to overlap. */
function widened(types: number): number {
  return types & (TYPE_NUMBER | TYPE_INTEGER) ? types | TYPE_NUMBER | TYPE_INTEGER : types
}

/**
 * True when no value can satisfy two branches because their `type` sets are disjoint (e.g. a
 * nullable `oneOf: [{ type: 'null' }, {...object}]`): `oneOf` then means the same as `anyOf`.
 */
export function haveDisjointTypes(branches: readonly SchemaNode[]): boolean {
  let union = 0
  for (const branch of branches) {
    const types = widened(branch.types)
    if (types === 0 || (union & types) !== 0) return false
    union |= types
  }
  return true
}
