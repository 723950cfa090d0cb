/**
 * Accessor-free reads of arbitrary (possibly hostile) schema objects for the code generators:
 * nothing here runs a getter or a proxy trap other than property descriptors.
 */

/** Own data property value, or undefined (never runs accessors). */
export function readOwn(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined
  const descriptor = Object.getOwnPropertyDescriptor(target, key)
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
}

/** Own string keys of an object, in insertion order. */
export function ownStringKeys(target: object): string[] {
  return Reflect.ownKeys(target).filter((key): key is string => typeof key === 'string')
}

/** The elements of a dense array of data properties, else undefined. */
export function denseItems(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined
  const out: unknown[] = []
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined || !('value' in descriptor)) return undefined
    out.push(descriptor.value)
  }
  return out
}

/**
 * A shallow copy of `node`'s own data properties without `drop`, plus `extra`: how a node that
 * combines keywords is split into parts (`{ type: [a, b] }` into one node per type).
 */
export function copyWithout(node: object, drop: readonly string[], extra?: Record<string, unknown>): object {
  // defineProperty, not assignment: a `__proto__` key must stay a plain own property.
  const out: Record<string, unknown> = {}
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  for (const key of ownStringKeys(node)) {
    if (drop.includes(key)) continue
    const descriptor = Object.getOwnPropertyDescriptor(node, key)
    if (descriptor !== undefined && 'value' in descriptor) put(key, descriptor.value)
  }
  for (const key of Object.keys(extra ?? {})) put(key, extra![key])
  return out
}
