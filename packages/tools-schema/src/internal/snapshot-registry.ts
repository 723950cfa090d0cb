/**
 * What the snapshot functions share: the record of the roots they returned (deep-frozen,
 * lossless snapshots already, so taking a snapshot of one again is free) and the reading of
 * their budget options.
 */
import type { JsonBudgetLimit } from '../errors'

/** A snapshot's size as counted against the budgets. */
export interface SnapshotSize {
  readonly nodes: number
  readonly stringLength: number
}

const snapshots = new WeakMap<object, SnapshotSize>()

/** The recorded size of a root a snapshot function returned, or `undefined`. */
export function knownSnapshot(value: object): SnapshotSize | undefined {
  return snapshots.get(value)
}

/** Record `root` (deep-frozen and lossless) as a snapshot of `size`. */
export function recordSnapshot(root: object, size: SnapshotSize): void {
  snapshots.set(root, size)
}

/** One budget option: `Infinity` when absent; a `RangeError` when not an integer ≥ `min`. */
export function readBudget(
  options: { readonly [K in JsonBudgetLimit]?: number | undefined },
  limit: JsonBudgetLimit,
  min: number,
  caller: string,
): number {
  const value = options[limit]
  if (value === undefined) return Number.POSITIVE_INFINITY
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${caller}(): \`${limit}\` must be an integer ≥ ${min}`)
  }
  return value
}
