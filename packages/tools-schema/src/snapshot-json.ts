import { LosslessJsonError } from './errors'
import { formatPath, joinPath, type PathNode } from './internal/path'
import type { JsonValue } from './types'

/**
 * One value to copy. A frame is also the path node of its value (formatted only when an
 * error needs it): `key` is its key in the parent container, absent for the root.
 */
interface Frame {
  readonly value: unknown
  readonly parent: PathNode | undefined
  readonly key: string | number | undefined
  /** Container receiving the copy (under `key`); absent for the root. */
  readonly target: Record<string, unknown> | unknown[] | undefined
}

/** Roots this module returned: deep-frozen snapshots already, so snapshotting them again is free. */
const snapshots = new WeakSet<object>()

function pathOf(frame: Frame): string {
  return frame.key === undefined ? '$' : formatPath(frame as PathNode)
}

function childFrame(frame: Frame, value: unknown, key: string | number, target: Frame['target']): Frame {
  return { value, parent: frame.key === undefined ? undefined : (frame as PathNode), key, target }
}

/** Marks the end of a container's subtree (removes it from the active ancestor set). */
interface ExitFrame {
  readonly exit: object
}

function isExit(frame: Frame | ExitFrame): frame is ExitFrame {
  return 'exit' in frame
}

/** Why a non-object value is not lossless JSON, or `undefined` when it is. */
function scalarProblem(value: unknown): string | undefined {
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

function describeObject(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === 'Object' ? 'a class instance' : `a ${tag}`
}

/** Reads own keys of a plain object, rejecting symbol keys, accessors and hidden properties. */
function plainEntries(value: object, frame: Frame): [string, unknown][] {
  const keys = Reflect.ownKeys(value)
  const entries: [string, unknown][] = []
  for (const key of keys) {
    if (typeof key === 'symbol')
      throw new LosslessJsonError(pathOf(frame), `symbol key ${String(key)} is not JSON`)
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor === undefined) continue
    if (!('value' in descriptor))
      throw new LosslessJsonError(joinPath(pathOf(frame), key), 'accessor properties are not JSON')
    if (!descriptor.enumerable)
      throw new LosslessJsonError(joinPath(pathOf(frame), key), 'non-enumerable properties are not JSON')
    entries.push([key, descriptor.value])
  }
  return entries
}

function arrayItems(value: unknown[], frame: Frame): unknown[] {
  const length = value.length
  const keys = Reflect.ownKeys(value)
  if (keys.length !== length + 1) {
    const path = pathOf(frame)
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
      throw new LosslessJsonError(joinPath(pathOf(frame), i), 'sparse array hole is not JSON')
    if (!('value' in descriptor)) {
      throw new LosslessJsonError(joinPath(pathOf(frame), i), 'accessor properties are not JSON')
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
 * are copied once per occurrence. Stack-safe for any nesting depth. A snapshot this function
 * returned is returned as is (it is already deep-frozen and lossless).
 */
export function snapshotJson(value: unknown): JsonValue {
  if (typeof value === 'object' && value !== null && snapshots.has(value)) return value as JsonValue
  const root: { value?: unknown } = {}
  const stack: (Frame | ExitFrame)[] = [{ value, parent: undefined, key: undefined, target: undefined }]
  const active = new Set<object>()
  const created: object[] = []
  while (stack.length > 0) {
    const frame = stack.pop()!
    if (isExit(frame)) {
      active.delete(frame.exit)
      continue
    }
    const current = frame.value
    let copy: unknown = current
    if (typeof current === 'object' && current !== null) {
      if (active.has(current)) throw new LosslessJsonError(pathOf(frame), 'cycle detected')
      const proto = Object.getPrototypeOf(current)
      if (Array.isArray(current)) {
        if (proto !== Array.prototype)
          throw new LosslessJsonError(pathOf(frame), 'array subclasses are not JSON')
        const items = arrayItems(current, frame)
        const out = new Array<unknown>(items.length)
        active.add(current)
        stack.push({ exit: current })
        for (let i = items.length - 1; i >= 0; i--) {
          stack.push(childFrame(frame, items[i], i, out))
        }
        created.push(out)
        copy = out
      } else {
        if (proto !== Object.prototype && proto !== null) {
          throw new LosslessJsonError(pathOf(frame), `${describeObject(current)} is not a plain JSON object`)
        }
        const entries = plainEntries(current, frame)
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
          stack.push(childFrame(frame, member, key, out))
        }
        created.push(out)
        copy = out
      }
    } else {
      const problem = scalarProblem(current)
      if (problem !== undefined) throw new LosslessJsonError(pathOf(frame), problem)
    }
    const target = frame.target
    if (target === undefined) root.value = copy
    else if (Array.isArray(target)) target[frame.key as number] = copy
    else if (frame.key === '__proto__') Object.defineProperty(target, frame.key, { value: copy })
    else target[frame.key as string] = copy
  }
  for (const container of created) Object.freeze(container)
  if (typeof root.value === 'object' && root.value !== null) snapshots.add(root.value)
  return root.value as JsonValue
}
