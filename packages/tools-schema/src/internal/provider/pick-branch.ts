import { isObject, mergeAllOf, resolvePointer, type SchemaObject, typesOf } from './schema-shape'

/** The JSON Schema type names a value has (`integer` values are `number`s too). */
export function jsonTypesOf(value: unknown): string[] {
  if (value === null) return ['null']
  if (Array.isArray(value)) return ['array']
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number']
  return [typeof value]
}

/** A branch with its `allOf` merged and leading `$ref`s followed (a bounded number of hops). */
export function resolveBranch(branch: unknown, root: unknown): unknown {
  let current = branch
  for (let hops = 0; hops < 32 && isObject(current); hops++) {
    const merged = mergeAllOf(current).node
    if (typeof merged.$ref !== 'string') return merged
    current = resolvePointer(root, merged.$ref)
  }
  return current
}

function rejects(branch: unknown, value: unknown, closed: boolean): boolean {
  if (branch === false) return true
  if (!isObject(branch)) return false
  const types = typesOf(branch)
  const valueTypes = jsonTypesOf(value)
  if (types.length > 0 && !types.some((type) => valueTypes.includes(type))) return true
  if (Object.hasOwn(branch, 'const') && JSON.stringify(branch.const) !== JSON.stringify(value)) return true
  if (!isObject(value)) return false
  const properties = isObject(branch.properties) ? branch.properties : undefined
  if (properties === undefined) return false
  const open = !closed && branch.additionalProperties !== false
  for (const key of Object.keys(value)) if (!open && !Object.hasOwn(properties, key)) return true
  for (const [key, schema] of Object.entries(properties)) {
    if (!isObject(schema) || !Object.hasOwn(value, key)) continue
    if (Object.hasOwn(schema, 'const') && JSON.stringify(schema.const) !== JSON.stringify(value[key]))
      return true
    if (
      Array.isArray(schema.enum) &&
      schema.enum.length === 1 &&
      JSON.stringify(schema.enum[0]) !== JSON.stringify(value[key])
    )
      return true
  }
  const required = Array.isArray(branch.required) ? branch.required : []
  return required.some((key) => typeof key === 'string' && !Object.hasOwn(value, key))
}

/**
 * The union branch a provider-dialect value belongs to: the first whose type, constants,
 * required keys and (when `closed`, as in strict mode) declared keys fit the value. Which
 * branch is picked only decides where reshaped values are read back; validation of the
 * canonical value still runs afterwards on the whole union.
 */
export function pickBranch(
  value: unknown,
  branches: readonly unknown[],
  root: unknown,
  closed: boolean,
): unknown {
  for (const branch of branches) {
    const resolved = resolveBranch(branch, root)
    if (!rejects(resolved, value, closed)) return branch
  }
  return undefined
}

export type { SchemaObject }
