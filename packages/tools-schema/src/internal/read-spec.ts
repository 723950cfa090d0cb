import { SchemaDefinitionError } from '../errors'
import { joinPath } from './path'

/**
 * Reads a schema record: only own, enumerable, string-keyed data properties are accepted.
 * Symbol keys, non-enumerable keys, accessors and inherited enumerable keys throw.
 */
export function readSpecRecord(value: unknown, path: string, what: string): [string, unknown][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchemaDefinitionError(path, `${what} must be a plain object`)
  }
  const entries: [string, unknown][] = []
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') {
      throw new SchemaDefinitionError(
        path,
        `${what} has a symbol key ${String(key)}; only string keys are allowed`,
      )
    }
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    const at = joinPath(path, key)
    if (!descriptor.enumerable) throw new SchemaDefinitionError(at, 'non-enumerable keys are not allowed')
    if (!('value' in descriptor)) throw new SchemaDefinitionError(at, 'accessor properties are not allowed')
    entries.push([key, descriptor.value])
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) {
      throw new SchemaDefinitionError(
        joinPath(path, key),
        'inherited keys are not allowed; use own properties',
      )
    }
  }
  return entries
}

/** Reads a dense, ordinary array (no holes, no subclass, no accessors). */
export function readSpecArray(value: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) {
    throw new SchemaDefinitionError(path, `${what} must be an ordinary array`)
  }
  const items: unknown[] = []
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined)
      throw new SchemaDefinitionError(joinPath(path, i), `${what} must be dense (hole)`)
    if (!('value' in descriptor)) {
      throw new SchemaDefinitionError(joinPath(path, i), 'accessor properties are not allowed')
    }
    items.push(descriptor.value)
  }
  return items
}
