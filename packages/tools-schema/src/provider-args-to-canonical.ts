import { setOwn } from './internal/describe'
import { GEMINI_REF_DEPTH } from './internal/provider/gemini'
import { jsonTypesOf, pickBranch } from './internal/provider/pick-branch'
import { type RefChain, refCount } from './internal/provider/rewrite-tree'
import {
  acceptsNull,
  branchOfType,
  elementSchemaOf,
  isConstraintUnion,
  isObject,
  isOpaqueIn,
  mergeAllOf,
  resolvePointer,
  type SchemaObject,
  typesOf,
} from './internal/provider/schema-shape'
import { rootPointerRefs } from './internal/root-pointer-refs'
import type { ProviderDialect } from './to-provider-schema'
import type { JsonSchemaNode, JsonValue } from './types'

interface Job {
  readonly value: unknown
  readonly node: unknown
  readonly refs: RefChain | undefined
  put(value: unknown): void
}

/** Most `$ref` hops followed for one value without descending (a reference cycle stops here). */
const MAX_REF_HOPS = 64

/**
 * Read arguments a model sent under a provider dialect back into the canonical form of
 * `schema` (the schema `toProviderSchema` converted): strict-mode `null` for an optional
 * property whose schema does not accept `null` becomes absent, and values the dialect carried
 * as JSON-encoded strings (free-form values, dictionaries, recursion cut by Gemini) are decoded.
 * `json-schema` returns the arguments unchanged. Pure and stack-safe; never throws for odd
 * arguments (what it cannot read back is left as it is, for validation to judge).
 *
 * @example
 * providerArgsToCanonical({ a: null }, { type: 'object', properties: { a: { type: 'string' } } }, 'openai-strict')
 * // → {}
 */
export function providerArgsToCanonical(
  args: JsonValue,
  schema: JsonSchemaNode | JsonValue,
  dialect: ProviderDialect,
): JsonValue {
  if (dialect === 'json-schema') return args
  // Refs into nested `$id` resources, read as root pointers like the converters wrote them.
  const root = rootPointerRefs(schema)
  const strict = dialect === 'openai-strict'
  let result: unknown = args
  const stack: Job[] = [{ value: args, node: root, refs: undefined, put: (v) => (result = v) }]
  while (stack.length > 0) {
    const job = stack.pop()!
    let { node, refs } = job
    let value = job.value
    let hops = 0
    // follow references (and merge allOf) the way the conversion did
    while (isObject(node) && hops++ < MAX_REF_HOPS) {
      const merged: SchemaObject = mergeAllOf(node).node
      if (typeof merged.$ref !== 'string') {
        node = merged
        break
      }
      const ref = merged.$ref
      const target = resolvePointer(root, ref)
      if (target === undefined || (!strict && refCount(refs, ref) >= GEMINI_REF_DEPTH)) {
        node = true // shown as a JSON-encoded string
        break
      }
      const siblings: Record<string, unknown> = { ...merged }
      delete siblings.$ref
      node = !strict && isObject(target) ? { ...target, ...siblings } : target
      refs = { ref, parent: refs }
    }
    if (isOpaqueIn(node, dialect)) {
      job.put(decoded(value))
      continue
    }
    if (!isObject(node)) {
      job.put(value)
      continue
    }
    let shape: SchemaObject = node
    const concrete = typesOf(shape).filter((type) => type !== 'null')
    if (concrete.length > 1) {
      const type = concrete.find((t) => jsonTypesOf(value).includes(t))
      if (type !== undefined) shape = branchOfType(shape, type)
    }
    // a union that only narrows the node's own shape was folded by the converters: no branch to read
    const branches = (['anyOf', 'oneOf'] as const).flatMap((key) => {
      const list = shape[key]
      return Array.isArray(list) && !isConstraintUnion(shape, list) ? list : []
    })
    if (branches.length > 0) {
      const branch = pickBranch(value, branches, root, strict)
      // pushed first so it runs after this node's own children have filled the value in
      if (branch !== undefined) {
        const slot = { value }
        stack.push({
          get value() {
            return slot.value
          },
          node: branch,
          refs,
          put: job.put,
        })
        value = ownKeywords(value, shape, refs, stack, strict, root)
        slot.value = value
        continue
      }
    }
    job.put(ownKeywords(value, shape, refs, stack, strict, root))
  }
  return result as JsonValue
}

function decoded(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/** Copy `value`, scheduling its members against the node's object/array keywords. */
function ownKeywords(
  value: unknown,
  node: SchemaObject,
  refs: RefChain | undefined,
  stack: Job[],
  strict: boolean,
  root: unknown,
): unknown {
  if (Array.isArray(value)) {
    // tuples (`prefixItems`, array `items`) were folded into descriptions: nothing reshaped there
    // the converters reshape elements only of nodes typed `array`
    if (!typesOf(node).includes('array')) return value
    const items = elementSchemaOf(node)
    const out: unknown[] = [...value]
    out.forEach((item, index) => {
      stack.push({ value: item, node: items, refs, put: (v) => (out[index] = v) })
    })
    return out
  }
  if (!isObject(value) || !isObject(node.properties)) return value
  const properties = node.properties
  const required = new Set(Array.isArray(node.required) ? node.required : [])
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    const memberSchema = Object.hasOwn(properties, key) ? properties[key] : undefined
    if (
      strict &&
      member === null &&
      memberSchema !== undefined &&
      !required.has(key) &&
      !acceptsNull(memberSchema, root)
    ) {
      continue // strict mode's stand-in for an absent optional property
    }
    setOwn(out, key, member)
    if (memberSchema !== undefined)
      stack.push({ value: member, node: memberSchema, refs, put: (v) => setOwn(out, key, v) })
  }
  return out
}
