import { JsonBudgetError, LosslessJsonError } from './errors'
import { arrayItems, describeObject, plainEntries, scalarProblem } from './internal/json-members'
import { formatPath, type PathNode } from './internal/path'
import { readBudget } from './internal/snapshot-budget'
import { stampedSize, stampSnapshot } from './internal/snapshot-stamp'
import type { JsonValue } from './types'

/** Options of {@link snapshotJson} and {@link snapshotJsonMeasured}. All default to off. */
export interface SnapshotJsonOptions {
  /**
   * Drop object properties whose value is `undefined`, at any depth, as `JSON.stringify` does.
   * Everything else lossy (an `undefined` array element, NaN, functions, …) is still rejected.
   * For boundaries where a language writes "absent" as `undefined` (Code Mode bindings); model
   * JSON never contains `undefined`, so native calls leave this off.
   */
  readonly omitUndefinedProperties?: boolean
  /**
   * Most JSON values (scalars and containers, each occurrence of a shared reference counted
   * again) the value may hold; integer ≥ 1. Past it, {@link JsonBudgetError} (`maxNodes`).
   */
  readonly maxNodes?: number
  /**
   * Most string code units (UTF-16) in string values and object keys together, each occurrence
   * counted; integer ≥ 0. Past it, {@link JsonBudgetError} (`maxStringLength`).
   */
  readonly maxStringLength?: number
  /**
   * Most containers nested inside one another (a scalar is depth 0, `[]` 1, `[[1]]` 2); integer
   * ≥ 0. Past it, {@link JsonBudgetError} (`maxDepth`) at the first container too deep.
   */
  readonly maxDepth?: number
}

/** A snapshot with its size, as counted against the budgets. */
export interface JsonSnapshot {
  /** The deep-frozen lossless copy. */
  readonly value: JsonValue
  /** JSON values in it, every occurrence of a shared reference counted. */
  readonly nodes: number
  /** String code units in its string values and keys, every occurrence counted. */
  readonly stringLength: number
  /** Containers nested at the deepest point (0 for a scalar). */
  readonly depth: number
}

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
  /** Containers enclosing the value (0 at the root). */
  readonly depth: number
}

/** A container met during this snapshot. While `open`, it is an ancestor (meeting it = cycle). */
interface Visit {
  readonly copy: object
  open: boolean
  /** Counters at entry while open; the subtree's own size once closed. */
  nodes: number
  stringLength: number
  /** The deepest level reached before entry while open; the subtree's height once closed. */
  height: number
  readonly depth: number
}

/** Marks the end of a container's subtree. */
interface ExitFrame {
  readonly exit: Visit
}

function pathOf(frame: Frame): string {
  return frame.key === undefined ? '$' : formatPath(frame as PathNode)
}

function childFrame(frame: Frame, value: unknown, key: string | number, target: Frame['target']): Frame {
  return {
    value,
    parent: frame.key === undefined ? undefined : (frame as PathNode),
    key,
    target,
    depth: frame.depth + 1,
  }
}

const NO_OPTIONS: SnapshotJsonOptions = Object.freeze({})

/**
 * Like {@link snapshotJson}, and also returns the snapshot's size as counted against the
 * budgets (for callers that account for it, e.g. queued bytes).
 *
 * @param value — the value to copy.
 * @param options — undefined-property handling and budgets.
 */
export function snapshotJsonMeasured(
  value: unknown,
  options: SnapshotJsonOptions = NO_OPTIONS,
): JsonSnapshot {
  // Each option is read once, by name (a read by a computed key is a slow lookup).
  const maxNodes = readBudget(options.maxNodes, 'maxNodes', 1, 'snapshotJson')
  const maxStringLength = readBudget(options.maxStringLength, 'maxStringLength', 0, 'snapshotJson')
  const maxDepth = readBudget(options.maxDepth, 'maxDepth', 0, 'snapshotJson')
  const omitUndefined = options.omitUndefinedProperties === true
  let nodes = 0
  let stringLength = 0
  // The deepest level reached so far (a container at depth d has its members at d + 1).
  let deepest = 0
  const over = (frame: Frame): never => {
    throw deepest > maxDepth
      ? new JsonBudgetError(pathOf(frame), 'maxDepth', maxDepth)
      : nodes > maxNodes
        ? new JsonBudgetError(pathOf(frame), 'maxNodes', maxNodes)
        : new JsonBudgetError(pathOf(frame), 'maxStringLength', maxStringLength)
  }

  // A root this function returned is deep-frozen and lossless already: only its size is checked.
  if (typeof value === 'object' && value !== null) {
    const known = stampedSize(value)
    if (known !== undefined) {
      nodes = known.nodes
      stringLength = known.stringLength
      deepest = known.depth
      if (nodes > maxNodes || stringLength > maxStringLength || deepest > maxDepth) {
        over({ value, parent: undefined, key: undefined, target: undefined, depth: 0 })
      }
      return { value: value as JsonValue, nodes, stringLength, depth: deepest }
    }
  }

  const root: { value?: unknown } = {}
  const stack: (Frame | ExitFrame)[] = [
    { value, parent: undefined, key: undefined, target: undefined, depth: 0 },
  ]
  const visits = new Map<object, Visit>()
  while (stack.length > 0) {
    const frame = stack.pop()!
    if ('exit' in frame) {
      const visit = frame.exit
      visit.open = false
      visit.nodes = nodes - visit.nodes
      visit.stringLength = stringLength - visit.stringLength
      const reached = deepest
      deepest = Math.max(visit.height, reached)
      visit.height = reached - visit.depth
      continue
    }
    const current = frame.value
    let copy: unknown = current
    if (typeof current === 'object' && current !== null) {
      const seen = visits.get(current)
      if (seen !== undefined) {
        if (seen.open) throw new LosslessJsonError(pathOf(frame), 'cycle detected')
        // A shared reference already copied: share its frozen copy, count its whole size again.
        nodes += seen.nodes
        stringLength += seen.stringLength
        deepest = Math.max(deepest, frame.depth + seen.height)
        if (nodes > maxNodes || stringLength > maxStringLength || deepest > maxDepth) over(frame)
        copy = seen.copy
      } else {
        copy = enter(frame, current)
      }
    } else {
      const problem = scalarProblem(current)
      if (problem !== undefined) throw new LosslessJsonError(pathOf(frame), problem)
      nodes++
      if (typeof current === 'string') stringLength += current.length
      if (nodes > maxNodes || stringLength > maxStringLength) over(frame)
    }
    const target = frame.target
    if (target === undefined) root.value = copy
    else if (Array.isArray(target)) target[frame.key as number] = copy
    else if (frame.key === '__proto__') Object.defineProperty(target, frame.key, { value: copy })
    else target[frame.key as string] = copy
  }
  const copy = root.value
  // Stamped before it is frozen (see `snapshot-stamp`).
  if (typeof copy === 'object' && copy !== null) stampSnapshot(copy, { nodes, stringLength, depth: deepest })
  for (const visit of visits.values()) Object.freeze(visit.copy)
  return { value: copy as JsonValue, nodes, stringLength, depth: deepest }

  /** Check and open one container: count it, queue its members, return its (empty) copy. */
  function enter(frame: Frame, current: object): object {
    const path = () => pathOf(frame)
    const proto = Object.getPrototypeOf(current)
    // A container at depth d is d + 1 levels of nesting; refuse it before reading its members.
    const level = frame.depth + 1
    const visit: Visit = {
      copy: current,
      open: true,
      nodes,
      stringLength,
      height: deepest,
      depth: frame.depth,
    }
    deepest = level
    if (level > maxDepth) over(frame)
    if (Array.isArray(current)) {
      if (proto !== Array.prototype) throw new LosslessJsonError(path(), 'array subclasses are not JSON')
      // Every element is at least one value: refuse an oversized array before reading it.
      nodes += 1
      if (nodes + current.length > maxNodes) {
        nodes += current.length
        over(frame)
      }
      const items = arrayItems(current, path)
      const out = new Array<unknown>(items.length)
      ;(visit as { copy: object }).copy = out
      visits.set(current, visit)
      stack.push({ exit: visit })
      for (let i = items.length - 1; i >= 0; i--) stack.push(childFrame(frame, items[i], i, out))
      return out
    }
    if (proto !== Object.prototype && proto !== null) {
      throw new LosslessJsonError(path(), `${describeObject(current)} is not a plain JSON object`)
    }
    const entries = plainEntries(current, path, omitUndefined)
    nodes += 1
    for (const [key] of entries) stringLength += key.length
    if (nodes + entries.length > maxNodes) nodes += entries.length
    if (nodes > maxNodes || stringLength > maxStringLength) over(frame)
    const out: Record<string, unknown> = {}
    for (const [key] of entries) {
      // Reserve each key in source order; `__proto__` as an own data property, never a setter.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value: null, enumerable: true, writable: true, configurable: true })
      } else {
        out[key] = null
      }
    }
    ;(visit as { copy: object }).copy = out
    visits.set(current, visit)
    stack.push({ exit: visit })
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member] = entries[i]!
      stack.push(childFrame(frame, member, key, out))
    }
    return out
  }
}

/**
 * Returns a deep-frozen, lossless copy of `value`, or throws `LosslessJsonError` (with the
 * offending `path`) for `undefined`, functions, symbols, BigInt, NaN/±Infinity, `-0`, cycles,
 * sparse arrays, non-plain objects (class instances, Date, Map, typed arrays, boxed primitives),
 * accessor properties (never invoked), non-enumerable properties and symbol keys.
 * Null-prototype objects are accepted (copied as ordinary objects). A shared non-cyclic
 * reference is copied once and its frozen copy shared, so the copy has the input's shape and
 * costs no more memory than it; budgets still count it at every occurrence. Stack-safe for any
 * nesting depth. A snapshot this function returned is returned as is (it is already
 * deep-frozen and lossless; its recorded size is checked against the budgets).
 *
 * @param value — the value to copy.
 * @param options — `omitUndefinedProperties`, and the `maxNodes` / `maxStringLength` budgets
 *   (past one: `JsonBudgetError` naming it and the path where counting stopped). A budget
 *   that is not an integer in range throws `RangeError`.
 */
export function snapshotJson(value: unknown, options?: SnapshotJsonOptions): JsonValue {
  return snapshotJsonMeasured(value, options).value
}
