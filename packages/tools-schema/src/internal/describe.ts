/** Human-readable JSON type of an arbitrary value, for violation messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  const kind = typeof value
  if (kind === 'object' && !isPlainObject(value)) {
    const tag = Object.prototype.toString.call(value).slice(8, -1)
    return tag === 'Object' ? 'class instance' : tag
  }
  if (kind === 'number') {
    if (Number.isNaN(value)) return 'NaN'
    if (!Number.isFinite(value)) return 'Infinity'
    return 'number'
  }
  return kind
}

/** Renders a scalar for messages: `"a"`, `1`, `true`, `null`. */
export function describeScalar(value: unknown): string {
  return JSON.stringify(value) ?? String(value)
}

/** True for a plain object (Object.prototype or null prototype), not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Defines an own enumerable data property, even for keys such as `__proto__`. */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  } else {
    ;(target as Record<string, unknown>)[key] = value
  }
}

/** `Object.prototype.hasOwnProperty` without relying on the receiver's prototype. */
export const hasOwn: (target: object, key: PropertyKey) => boolean = (target, key) =>
  Object.hasOwn(target, key)
