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

// How far `$ref`/`allOf` are followed looking for the tag (schemas from generators nest 1–2
// deep), and how many nodes and tag names are looked at: a hostile schema cannot make this slow.
const MAX_FOLLOW = 4
const MAX_CONJUNCTS = 16
const MAX_CANDIDATES = 8

/** The scalar values a property node demands, or undefined when it allows more. */
function demandedScalars(node: SchemaNode): readonly Scalar[] | undefined {
  if (node.constSet !== undefined)
    return isScalarValue(node.constValue) ? [node.constValue as Scalar] : undefined
  if (node.enumValues?.every(isScalarValue)) return node.enumValues as Scalar[]
  return undefined
}

/** `node` and the nodes it also applies through `$ref` and `allOf` (a bounded, deduplicated walk). */
function conjuncts(node: SchemaNode): SchemaNode[] {
  const out = [node]
  let level = [node]
  for (let depth = 0; depth < MAX_FOLLOW && level.length > 0; depth++) {
    const next: SchemaNode[] = []
    for (const current of level) {
      for (const part of current.ref === undefined ? current.allOf : [current.ref, ...current.allOf]) {
        if (out.includes(part)) continue
        if (out.length === MAX_CONJUNCTS) return out
        out.push(part)
        next.push(part)
      }
    }
    level = next
  }
  return out
}

/**
 * The values of `key` that every value valid against one of `parts` (a branch's conjuncts) has,
 * where that part also demands an object with `key` present; undefined when none demands that.
 */
function tagValues(parts: readonly SchemaNode[], key: string): readonly Scalar[] | undefined {
  for (const part of parts) {
    if (part.types !== TYPE_OBJECT || !part.required.includes(key)) continue
    const property = part.properties?.get(key)
    const values = property === undefined ? undefined : demandedScalars(property)
    if (values !== undefined) return values
  }
  return undefined
}

/** Tag names worth trying: those the first branch demands with scalar values. */
function candidateKeys(parts: readonly SchemaNode[]): string[] {
  const out: string[] = []
  for (const part of parts) {
    if (part.types !== TYPE_OBJECT) continue
    for (const key of part.required) {
      if (out.length === MAX_CANDIDATES) return out
      if (!out.includes(key) && tagValues([part], key) !== undefined) out.push(key)
    }
  }
  return out
}

/**
 * A property every branch requires with scalar `const`/`enum` values disjoint across branches:
 * a value can then only match the branch its tag names. Undefined when there is none (or fewer
 * than two branches).
 */
export function findDiscriminator(branches: readonly SchemaNode[]): Discriminator | undefined {
  if (branches.length < 2) return undefined
  const parts = branches.map(conjuncts)
  for (const key of candidateKeys(parts[0]!)) {
    const seen = new Set<Scalar>()
    const values: (readonly Scalar[])[] = []
    for (const branchParts of parts) {
      const tags = tagValues(branchParts, key)
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
