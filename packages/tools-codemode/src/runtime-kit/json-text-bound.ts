/**
 * A lower bound on the length of a value's JSON text, counted without building the text and
 * given up past a limit. A tool's value is the host's own object graph: a value whose parts share
 * references (a "DAG bomb": `v = [v, v]` forty times) is small in memory, but its JSON text holds
 * every shared part once per occurrence, so `JSON.stringify` would work for minutes and exhaust
 * the host before failing. Counting every occurrence, and stopping at the limit, bounds the work
 * by the limit whatever the shape.
 */

/**
 * Whether the JSON text of `value` is certainly longer than `limit` UTF-16 code units. The count
 * is a lower bound (strings without escapes, numbers as one unit), so `false` does not promise
 * that the text fits; the caller still measures the text it builds. Shared references count at
 * every occurrence, a cycle counts until the limit is passed, and the walk visits at most about
 * `limit` values. Only own enumerable string keys are read, as `JSON.stringify` does; `toJSON` and
 * getters are not run (a getter's value counts as one unit), so the walk never runs tool code.
 */
export function jsonTextExceeds(value: unknown, limit: number): boolean {
  let units = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    units += unitsOf(item, stack, limit - units)
    if (units > limit) return true
  }
  return false
}

/**
 * The units `item` adds by itself; its children are pushed on `stack`, unless the item alone
 * passes `room` (then nothing is pushed: the caller stops).
 */
function unitsOf(item: unknown, stack: unknown[], room: number): number {
  switch (typeof item) {
    case 'string':
      return item.length + 2
    case 'object': {
      if (item === null) return 4
      if (Array.isArray(item)) {
        if (item.length >= room) return item.length + 1
        for (let i = 0; i < item.length; i++) stack.push(Object.getOwnPropertyDescriptor(item, i)?.value)
        // Brackets and the commas between items.
        return Math.max(2, item.length + 1)
      }
      const keys = Object.keys(item)
      let units = Math.max(2, keys.length + 1)
      if (units > room) return units
      for (const key of keys) {
        units += key.length + 3
        stack.push(Object.getOwnPropertyDescriptor(item, key)?.value)
      }
      return units
    }
    default:
      return 1
  }
}
