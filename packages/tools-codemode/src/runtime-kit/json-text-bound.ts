/**
 * What a value's JSON text would cost, measured without building the text. A tool's value is
 * the host's own object graph: a value whose parts share references (a "DAG bomb": `v = [v, v]`
 * forty times) is small in memory, but its JSON text holds every shared part once per
 * occurrence, so `JSON.stringify` would work for minutes and exhaust the host before failing.
 * Each distinct object is measured once and its totals reused at every occurrence, so the work
 * is linear in the value's size in memory whatever its text would be. One walk counts the
 * text's length, its JSON values and its depth (the same counts `jsonTextShapeIssue` reads off
 * a text).
 */

/** The limits {@link jsonValueIssue} checks; an absent one is not checked. */
export interface JsonValueLimits {
  /** Most UTF-16 code units of the JSON text (a lower bound is counted; see {@link jsonTextExceeds}). */
  readonly maxUnits?: number
  /** Most JSON values, every occurrence of a shared reference counted. */
  readonly maxNodes?: number
  /** Deepest nesting of arrays and objects. */
  readonly maxDepth?: number
}

/** The limit a value passes; `cycle` for a value whose text would never end. */
export type JsonValueIssue = 'maxUnits' | 'maxNodes' | 'maxDepth' | 'cycle'

/** Totals of one measured object: text units, JSON values, and height (its own nesting). */
interface Totals {
  units: number
  nodes: number
  height: number
}

/** One object being measured: its children still to visit and the totals counted so far. */
interface Frame extends Totals {
  readonly object: object
  readonly children: unknown[]
  next: number
}

/**
 * Whether the JSON text of `value` is certainly longer than `limit` UTF-16 code units. The
 * count is a lower bound (strings without escapes, numbers and other primitives as one unit), so
 * `false` does not promise that the text fits: the caller still measures the text it builds.
 * A shared reference counts at every occurrence, but is walked once; a cycle, whose text would
 * never end, is `true`. Only own enumerable string keys are read, as `JSON.stringify` does
 * (a getter of the host's value runs, as it would there); `toJSON` is not called: the value is
 * a tool's JSON data.
 */
export function jsonTextExceeds(value: unknown, limit: number): boolean {
  return jsonValueIssue(value, { maxUnits: limit }) !== undefined
}

/**
 * The first of `limits` the JSON text of `value` would pass, or `undefined` when it is within
 * them all: the walk of {@link jsonTextExceeds}, counting values and depth as well. It stops at
 * the first limit passed.
 */
export function jsonValueIssue(value: unknown, limits: JsonValueLimits): JsonValueIssue | undefined {
  const maxUnits = limits.maxUnits ?? Number.POSITIVE_INFINITY
  const maxNodes = limits.maxNodes ?? Number.POSITIVE_INFINITY
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY
  const over = (totals: Totals, depth: number): JsonValueIssue | undefined =>
    totals.units > maxUnits
      ? 'maxUnits'
      : totals.nodes > maxNodes
        ? 'maxNodes'
        : depth + totals.height > maxDepth
          ? 'maxDepth'
          : undefined
  if (typeof value !== 'object' || value === null) {
    return over({ units: primitiveUnits(value), nodes: 1, height: 0 }, 0)
  }
  const measured = new Map<object, Totals>()
  const open = new Set<object>()
  const stack: Frame[] = []
  /** Open `object` one level below the stack's top; its own brackets and keys are counted. */
  const enter = (object: object): JsonValueIssue | undefined => {
    const frame = frameOf(object, maxUnits, maxNodes)
    const issue = over(frame, stack.length)
    if (issue !== undefined) return issue
    open.add(object)
    stack.push(frame)
    return undefined
  }
  /** Add a child's totals to `frame`, at the depth of `frame`'s children. */
  const add = (frame: Frame, child: Totals): JsonValueIssue | undefined => {
    frame.units += child.units
    frame.nodes += child.nodes
    frame.height = Math.max(frame.height, child.height + 1)
    return over(frame, stack.length - 1)
  }
  const first = enter(value)
  if (first !== undefined) return first
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    if (frame.next === frame.children.length) {
      stack.pop()
      open.delete(frame.object)
      measured.set(frame.object, { units: frame.units, nodes: frame.nodes, height: frame.height })
      const parent = stack[stack.length - 1]
      if (parent !== undefined) {
        const issue = add(parent, frame)
        if (issue !== undefined) return issue
      }
      continue
    }
    const child = frame.children[frame.next++]
    let issue: JsonValueIssue | undefined
    if (typeof child !== 'object' || child === null) {
      issue = add(frame, { units: primitiveUnits(child), nodes: 1, height: -1 })
    } else if (open.has(child)) {
      return 'cycle'
    } else {
      const known = measured.get(child)
      issue = known !== undefined ? add(frame, known) : enter(child)
    }
    if (issue !== undefined) return issue
  }
  return undefined
}

function primitiveUnits(value: unknown): number {
  return typeof value === 'string' ? value.length + 2 : 1
}

/**
 * A frame for `object` with its own totals: brackets, commas and quoted keys, one value for
 * itself, height 1. Past a limit by itself, it gets no children (the caller stops), so a huge
 * array is never walked.
 */
function frameOf(object: object, maxUnits: number, maxNodes: number): Frame {
  if (Array.isArray(object)) {
    const units = Math.max(2, object.length + 1)
    const nodes = object.length + 1 > maxNodes ? object.length + 1 : 1
    const tooLarge = units > maxUnits || nodes > 1
    return { object, children: tooLarge ? [] : object, next: 0, units, nodes, height: 1 }
  }
  const record = object as Record<string, unknown>
  const keys = Object.keys(record)
  let units = Math.max(2, keys.length + 1)
  if (keys.length + 1 > maxNodes) {
    return { object, children: [], next: 0, units, nodes: keys.length + 1, height: 1 }
  }
  const children: unknown[] = []
  for (const key of keys) {
    units += key.length + 3
    if (units > maxUnits) return { object, children: [], next: 0, units, nodes: 1, height: 1 }
    children.push(record[key])
  }
  return { object, children, next: 0, units, nodes: 1, height: 1 }
}
