/**
 * A lower bound on the length of a value's JSON text, computed without building the text. A
 * tool's value is the host's own object graph: a value whose parts share references (a "DAG
 * bomb": `v = [v, v]` forty times) is small in memory, but its JSON text holds every shared part
 * once per occurrence, so `JSON.stringify` would work for minutes and exhaust the host before
 * failing. Each distinct object is measured once and its length reused at every occurrence, so
 * the work is linear in the value's size in memory whatever its text would be.
 */

/** One object being measured: its children still to visit and the units counted so far. */
interface Frame {
  readonly object: object
  readonly children: unknown[]
  next: number
  units: number
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
  if (typeof value !== 'object' || value === null) return primitiveUnits(value) > limit
  const measured = new Map<object, number>()
  const open = new Set<object>()
  const stack: Frame[] = []
  const enter = (object: object): boolean => {
    const frame = frameOf(object, limit)
    if (frame.units > limit) return false
    open.add(object)
    stack.push(frame)
    return true
  }
  if (!enter(value)) return true
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    if (frame.next === frame.children.length) {
      stack.pop()
      open.delete(frame.object)
      measured.set(frame.object, frame.units)
      const parent = stack[stack.length - 1]
      if (parent !== undefined) {
        parent.units += frame.units
        if (parent.units > limit) return true
      }
      continue
    }
    const child = frame.children[frame.next++]
    if (typeof child !== 'object' || child === null) {
      frame.units += primitiveUnits(child)
    } else if (open.has(child)) {
      return true
    } else {
      const known = measured.get(child)
      if (known !== undefined) frame.units += known
      else if (!enter(child)) return true
    }
    if (frame.units > limit) return true
  }
  return false
}

function primitiveUnits(value: unknown): number {
  return typeof value === 'string' ? value.length + 2 : 1
}

/**
 * A frame for `object` with its own units: brackets, commas and quoted keys. Past `limit` by
 * itself, it gets no children (the caller stops), so a huge array is never walked.
 */
function frameOf(object: object, limit: number): Frame {
  if (Array.isArray(object)) {
    const units = Math.max(2, object.length + 1)
    return { object, children: units > limit ? [] : object, next: 0, units }
  }
  const record = object as Record<string, unknown>
  const keys = Object.keys(record)
  let units = Math.max(2, keys.length + 1)
  const children: unknown[] = []
  for (const key of keys) {
    units += key.length + 3
    if (units > limit) return { object, children: [], next: 0, units }
    children.push(record[key])
  }
  return { object, children, next: 0, units }
}
