/**
 * The mark `snapshotJson` leaves on each root it returns, with the snapshot's size, so that
 * snapshotting it again is free. A `WeakMap` would do the same, but each insertion is an
 * ephemeron the garbage collector has to trace and clear: with one snapshot per tool call that
 * cost more (≈ 1–2 µs per insertion, measured) than copying a small value. A private field
 * lives on the object itself and costs the collector nothing extra.
 *
 * The field is installed through a base constructor that returns the copy (the standard
 * "return override"): it is invisible to every reflective API (own keys, descriptors, JSON,
 * structured clone), and it is only ever added to a copy this module is still building, before
 * that copy is frozen.
 */

/** The size of a snapshot, as counted against the budgets. */
export interface SnapshotSize {
  readonly nodes: number
  readonly stringLength: number
  /** Containers nested at the deepest point (0 for a scalar). */
  readonly depth: number
}

class ReturnTarget {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the return override is the point
    return target as ReturnTarget
  }
}

class SnapshotStamp extends ReturnTarget {
  readonly #nodes: number
  readonly #stringLength: number
  readonly #depth: number

  private constructor(target: object, size: SnapshotSize) {
    super(target)
    this.#nodes = size.nodes
    this.#stringLength = size.stringLength
    this.#depth = size.depth
  }

  /** Mark `copy` (not yet frozen) as a snapshot of the given size. */
  static stamp(copy: object, size: SnapshotSize): void {
    new SnapshotStamp(copy, size)
  }

  /** The recorded size of a value this module stamped, else `undefined`. */
  static sizeOf(value: object): SnapshotSize | undefined {
    if (!(#nodes in value)) return undefined
    const stamped = value as SnapshotStamp
    return { nodes: stamped.#nodes, stringLength: stamped.#stringLength, depth: stamped.#depth }
  }
}

/** Mark a snapshot root before it is frozen. */
export const stampSnapshot: (copy: object, size: SnapshotSize) => void = SnapshotStamp.stamp

/** The size recorded on a snapshot root, or `undefined` for anything this module did not return. */
export const stampedSize: (value: object) => SnapshotSize | undefined = SnapshotStamp.sizeOf
