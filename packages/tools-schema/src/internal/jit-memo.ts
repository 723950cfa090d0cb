import { allChildren, inPlaceChildren, type SchemaNode } from './schema-node'

/**
 * `memo`: whether the generated check must remember, per validation, what each function answered for
 * each container. Without a memo, a schema that applies two subschemas to the same value
 * (`allOf: [{ $ref: S }, { $ref: S }]`, an `anyOf` whose first branch fails late, `contains`
 * beside `items`, a member matched by a property and a pattern) re-checks the value's whole
 * subtree once per path, and through recursion the paths multiply: 2^depth. With the memo each
 * (function, container) pair is checked once, so the cost is linear in the value for a given
 * schema. Schemas where every value is reached by one path only (the common case: objects,
 * arrays, single `$ref`s) skip it and pay nothing. `rootReferenced`: whether any subschema refers
 * back to the root; a root nothing refers to runs once per validation, so it needs no memo.
 */
export function memoFlags(root: SchemaNode): { readonly memo: boolean; readonly rootReferenced: boolean } {
  const seen = new Set<SchemaNode>([root])
  const stack = [root]
  let memo = false
  let rootReferenced = false
  while (stack.length > 0) {
    const node = stack.pop()!
    if (reachesValueTwice(node)) memo = true
    for (const child of allChildren(node)) {
      if (child === root) rootReferenced = true
      if (seen.has(child)) continue
      seen.add(child)
      stack.push(child)
    }
  }
  return { memo, rootReferenced }
}

function reachesValueTwice(node: SchemaNode): boolean {
  const descends =
    node.prefixItems.length > 0 ||
    node.items !== undefined ||
    node.propertyNodes.length > 0 ||
    node.additionalProperties !== undefined
  if (inPlaceChildren(node).length + (descends ? 1 : 0) > 1) return true
  // An item checked by `contains` and by `items`; a member by a pattern and a property or another pattern.
  return node.contains !== undefined || node.patternProperties.length > 0
}
