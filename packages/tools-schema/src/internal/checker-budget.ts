import { stampedSize } from './snapshot-stamp'

/** Steps every interpreter run may take, whatever the value's size. */
const BASE_STEPS = 100_000
/** Further steps per value in the input (each value is usually one or two steps). */
const STEPS_PER_VALUE = 32

/**
 * How many (subschema, value) applications one interpreter run may make for `value`: linear in
 * the value, so explaining a failure costs a bounded multiple of reading it even where a schema
 * applies subschemas along many paths (the interpreter has no memo). A snapshot's size is
 * recorded; anything else is counted in one iterative pass (each object once, so a cycle or a
 * shared reference cannot make it loop or blow up).
 */
export function checkerBudget(value: unknown): number {
  return BASE_STEPS + STEPS_PER_VALUE * countValues(value)
}

function countValues(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1
  const known = stampedSize(value)
  if (known !== undefined) return known.nodes
  const seen = new Set<object>([value])
  const stack: object[] = [value]
  let count = 1
  while (stack.length > 0) {
    const container = stack.pop()!
    // Own enumerable string keys only (what JSON has); an accessor is never invoked.
    const keys = Object.keys(container)
    count += keys.length
    for (const key of keys) {
      const descriptor = Object.getOwnPropertyDescriptor(container, key)
      const member: unknown = descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
      if (typeof member === 'object' && member !== null && !seen.has(member)) {
        seen.add(member)
        stack.push(member)
      }
    }
  }
  return count
}
