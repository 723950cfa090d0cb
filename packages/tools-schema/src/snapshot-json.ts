import { LosslessJsonError } from './errors'
import { joinPath } from './internal/path'
import type { JsonValue } from './types'

interface Frame {
  readonly value: unknown
  readonly path: string
  /** Container receiving the copy, and the key under which to store it. */
  readonly target: Record<string, unknown> | unknown[] | undefined
  readonly key: string | number
}

/** Marks the end of a container's subtree (removes it from the active ancestor set). */
interface ExitFrame {
  readonly exit: object
}

function isExit(frame: Frame | ExitFrame): frame is ExitFrame {
  return 'exit' in frame
}

function checkScalar(value: unknown, path: string): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return
    case 'number':
      if (Number.isNaN(value)) throw new LosslessJsonError(path, 'NaN is not JSON')
      if (!Number.isFinite(value)) throw new LosslessJsonError(path, `${value} is not JSON`)
      if (Object.is(value, -0)) throw new LosslessJsonError(path, '-0 does not survive JSON')
      return
    case 'undefined':
      throw new LosslessJsonError(path, 'undefined is not JSON')
    case 'function':
      throw new LosslessJsonError(path, 'a function is not JSON')
    case 'symbol':
      throw new LosslessJsonError(path, 'a symbol is not JSON')
    case 'bigint':
      throw new LosslessJsonError(path, 'a BigInt is not JSON')
  }
}

function describeObject(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === 'Object' ? 'a class instance' : `a ${tag}`
}

/** Reads own keys of a plain object, rejecting symbol keys, accessors and hidden properties. */
function plainEntries(value: object, path: string): [string, unknown][] {
  const keys = Reflect.ownKeys(value)
  const entries: [string, unknown][] = []
  for (const key of keys) {
    if (typeof key === 'symbol') throw new LosslessJsonError(path, `symbol key ${String(key)} is not JSON`)
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor === undefined) continue
    const at = joinPath(path, key)
    if (!('value' in descriptor)) throw new LosslessJsonError(at, 'accessor properties are not JSON')
    if (!descriptor.enumerable) throw new LosslessJsonError(at, 'non-enumerable properties are not JSON')
    entries.push([key, descriptor.value])
  }
  return entries
}

function arrayItems(value: unknown[], path: string): unknown[] {
  const length = value.length
  const keys = Reflect.ownKeys(value)
  if (keys.length !== length + 1) {
    for (let i = 0; i < length; i++) {
      if (!Object.hasOwn(value, i)) {
        throw new LosslessJsonError(joinPath(path, i), 'sparse array hole is not JSON')
      }
    }
    const extra = keys.find((key) => key !== 'length' && !(typeof key === 'string' && /^\d+$/.test(key)))
    throw new LosslessJsonError(path, `array carries non-index property ${String(extra)}`)
  }
  const items = new Array<unknown>(length)
  for (let i = 0; i < length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined)
      throw new LosslessJsonError(joinPath(path, i), 'sparse array hole is not JSON')
    if (!('value' in descriptor)) {
      throw new LosslessJsonError(joinPath(path, i), 'accessor properties are not JSON')
    }
    items[i] = descriptor.value
  }
  return items
}

/**
 * Returns a deep-frozen, lossless copy of `value`, or throws `LosslessJsonError` (with the
 * offending `path`) for `undefined`, functions, symbols, BigInt, NaN/±Infinity, `-0`, cycles,
 * sparse arrays, non-plain objects (class instances, Date, Map, typed arrays, boxed primitives),
 * accessor properties (never invoked), non-enumerable properties and symbol keys.
 * Null-prototype objects are accepted (copied as ordinary objects); shared non-cyclic references
 * are copied once per occurrence. Stack-safe for any nesting depth.
 */
export function snapshotJson(value: unknown): JsonValue {
  const root: { value?: unknown } = {}
  const stack: (Frame | ExitFrame)[] = [{ value, path: '$', target: undefined, key: 0 }]
  const active = new Set<object>()
  const created: object[] = []
  while (stack.length > 0) {
    const frame = stack.pop()!
    if (isExit(frame)) {
      active.delete(frame.exit)
      continue
    }
    const { value: current, path } = frame
    let copy: unknown = current
    if (typeof current === 'object' && current !== null) {
      if (active.has(current)) throw new LosslessJsonError(path, 'cycle detected')
      const proto = Object.getPrototypeOf(current)
      if (Array.isArray(current)) {
        if (proto !== Array.prototype) throw new LosslessJsonError(path, 'array subclasses are not JSON')
        const items = arrayItems(current, path)
        const out = new Array<unknown>(items.length)
        active.add(current)
        stack.push({ exit: current })
        for (let i = items.length - 1; i >= 0; i--) {
          stack.push({ value: items[i], path: joinPath(path, i), target: out, key: i })
        }
        created.push(out)
        copy = out
      } else {
        if (proto !== Object.prototype && proto !== null) {
          throw new LosslessJsonError(path, `${describeObject(current)} is not a plain JSON object`)
        }
        const entries = plainEntries(current, path)
        const out: Record<string, unknown> = {}
        active.add(current)
        stack.push({ exit: current })
        for (const [key] of entries) {
          if (key === '__proto__') {
            Object.defineProperty(out, key, {
              value: null,
              enumerable: true,
              writable: true,
              configurable: true,
            })
          } else {
            out[key] = null
          }
        }
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, member] = entries[i]!
          stack.push({ value: member, path: joinPath(path, key), target: out, key })
        }
        created.push(out)
        copy = out
      }
    } else {
      checkScalar(current, path)
    }
    const target = frame.target
    if (target === undefined) root.value = copy
    else if (Array.isArray(target)) target[frame.key as number] = copy
    else if (frame.key === '__proto__') Object.defineProperty(target, frame.key, { value: copy })
    else target[frame.key] = copy
  }
  for (const container of created) Object.freeze(container)
  return root.value as JsonValue
}
