/** The reading of the snapshot functions' budget options (`maxNodes`, `maxStringLength`). */
import type { JsonBudgetLimit } from '../errors'

/**
 * One budget option's value: `Infinity` when absent; a `RangeError` when not an integer ≥ `min`.
 * Callers pass the value read by name (`options.maxNodes`): a read by a computed key is a slow
 * lookup on the per-call path.
 */
export function readBudget(
  value: number | undefined,
  limit: JsonBudgetLimit,
  min: number,
  caller: string,
): number {
  if (value === undefined) return Number.POSITIVE_INFINITY
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${caller}(): \`${limit}\` must be an integer ≥ ${min}`)
  }
  return value
}
