/**
 * Reading one value's members for `snapshotJson`: what makes a scalar, an object or an array
 * not lossless JSON. Paths are built lazily (`path()`), only when an error needs one.
 */
import { LosslessJsonError } from '../errors'
import { joinPath } from './path'

/** Why a non-object value is not lossless JSON, or `undefined` when it is. */
export function scalarProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'number':
      if (Number.isNaN(value)) return 'NaN is not JSON'
      if (!Number.isFinite(value)) return `${value} is not JSON`
      if (Object.is(value, -0)) return '-0 does not survive JSON'
      return undefined
    case 'undefined':
      return 'undefined is not JSON'
    case 'function':
      return 'a function is not JSON'
    case 'symbol':
      return 'a symbol is not JSON'
    case 'bigint':
      return 'a BigInt is not JSON'
    default:
      return undefined
  }
}

/** Names a non-plain object for an error message. */
export function describeObject(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === 'Object' ? 'a class instance' : `a ${tag}`
}

/**
 * Own keys and values of a plain object, rejecting symbol keys, accessors (never invoked) and
 * non-enumerable properties. With `omitUndefined`, data properties holding `undefined` are
 * skipped, as `JSON.stringify` skips them.
 */
export function plainEntries(value: object, path: () => string, omitUndefined: boolean): [string, unknown][] {
  // The string keys, then the symbol keys: what `Reflect.ownKeys` lists, in its order (so the
  // same problem is reported first), at a tenth of its cost on an ordinary object.
  const keys = Object.getOwnPropertyNames(value)
  const entries: [string, unknown][] = []
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor === undefined) continue
    if (!('value' in descriptor))
      throw new LosslessJsonError(joinPath(path(), key), 'accessor properties are not JSON')
    if (!descriptor.enumerable)
      throw new LosslessJsonError(joinPath(path(), key), 'non-enumerable properties are not JSON')
    if (omitUndefined && descriptor.value === undefined) continue
    entries.push([key, descriptor.value])
  }
  const symbols = Object.getOwnPropertySymbols(value)
  if (symbols.length > 0) throw new LosslessJsonError(path(), `symbol key ${String(symbols[0])} is not JSON`)
  return entries
}

/** The elements of a dense ordinary array, rejecting holes, accessors and non-index properties. */
export function arrayItems(value: unknown[], path: () => string): unknown[] {
  const length = value.length
  const keys = Reflect.ownKeys(value)
  if (keys.length !== length + 1) {
    for (let i = 0; i < length; i++) {
      if (!Object.hasOwn(value, i))
        throw new LosslessJsonError(joinPath(path(), i), 'sparse array hole is not JSON')
    }
    const extra = keys.find((key) => key !== 'length' && !(typeof key === 'string' && /^\d+$/.test(key)))
    throw new LosslessJsonError(path(), `array carries non-index property ${String(extra)}`)
  }
  const items = new Array<unknown>(length)
  for (let i = 0; i < length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined)
      throw new LosslessJsonError(joinPath(path(), i), 'sparse array hole is not JSON')
    if (!('value' in descriptor))
      throw new LosslessJsonError(joinPath(path(), i), 'accessor properties are not JSON')
    items[i] = descriptor.value
  }
  return items
}
