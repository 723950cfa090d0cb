import { describeScalar } from './describe'
import { isScalarValue } from './json-equal'
import type { SchemaNode } from './schema-node'
import { type Discriminator, findDiscriminator } from './union-dispatch'

/**
 * What a tagged union's tag says about a value, for explaining a failure the way the schema's
 * author thinks of it (zod's `discriminatedUnion`, pydantic's `discriminator`, OpenAPI's):
 * `pet_type: "cat"` names the Cat branch, so its own violations are the answer, not a list of
 * every branch's first complaint. Sound for `anyOf` and `oneOf` alike: every branch requires the
 * tag with values disjoint from the others', so no other branch can match.
 */
export type TagChoice =
  | { readonly kind: 'branch'; readonly index: number }
  | { readonly kind: 'missing'; readonly key: string }
  | { readonly kind: 'unknown'; readonly key: string; readonly message: string }

const discriminators = new WeakMap<readonly SchemaNode[], Discriminator | null>()

function discriminatorOf(branches: readonly SchemaNode[]): Discriminator | undefined {
  let found = discriminators.get(branches)
  if (found === undefined) {
    found = findDiscriminator(branches) ?? null
    discriminators.set(branches, found)
  }
  return found ?? undefined
}

// A message lists at most this many tags.
const SHOWN_TAGS = 50

/**
 * The branch `value`'s tag selects, or why none can match; undefined when the union has no tag
 * or `value` is not a plain object whose tag is a data property (then every branch is explained).
 */
export function chooseByTag(branches: readonly SchemaNode[], value: unknown): TagChoice | undefined {
  const tag = discriminatorOf(branches)
  if (tag === undefined || typeof value !== 'object' || value === null || Array.isArray(value))
    return undefined
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return undefined
  const descriptor = Object.getOwnPropertyDescriptor(value, tag.key)
  if (descriptor === undefined) return { kind: 'missing', key: tag.key }
  if (!('value' in descriptor)) return undefined
  const actual = descriptor.value
  if (isScalarValue(actual)) {
    // Tags are scalars compared as JSON compares them (0 and -0 are one number).
    const index = tag.values.findIndex((values) => values.some((v) => v === actual))
    if (index >= 0) return { kind: 'branch', index }
  }
  const all = tag.values.flat()
  const shown = all.slice(0, SHOWN_TAGS).map(describeScalar).join(', ')
  return {
    kind: 'unknown',
    key: tag.key,
    message: `expected one of ${shown}${all.length > SHOWN_TAGS ? ', …' : ''} (the tag of ${branches.length} union branches)`,
  }
}
