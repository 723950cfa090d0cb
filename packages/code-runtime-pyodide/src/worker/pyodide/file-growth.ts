/**
 * How in-memory files grow. Emscripten's MEMFS grows a file by allocating a new array 1.125 times
 * the old one and copying: every append past the capacity leaves the old array as garbage until
 * V8 next collects, so writing a 120 MiB file took the host up by about 320 MiB — files cost two
 * to three times what the file quota charged. Here a growing file's bytes live in a resizable
 * `ArrayBuffer` that grows in place, to the size asked for: no copy, no garbage, and the capacity
 * stays what the quota charges. Only when a file outgrows its reservation (address space, not
 * memory: four times the size asked for, at least 16 MiB, at most the limit) is it moved, so
 * moves are rare and their garbage sums to less than the file's final size.
 */

const MIN_RESERVATION = 16 * 1024 * 1024

/** A MEMFS file node, as the growth reads and replaces it. */
interface GrowingNode {
  contents: Uint8Array | null
  usedBytes: number
}

/** What the replacement needs of MEMFS (`FS.filesystems.MEMFS`). */
export interface GrowableFileSystem {
  expandFileStorage: (node: GrowingNode, capacity: number) => void
}

/** The reservation for a file that needs `capacity` bytes now. */
function reservation(capacity: number, limitBytes: number): number {
  return Math.max(capacity, Math.min(limitBytes, Math.max(4 * capacity, MIN_RESERVATION)))
}

/**
 * Replace MEMFS's `expandFileStorage` with in-place growth to exactly `capacity` bytes.
 * `limitBytes` bounds a reservation (the quota refuses growth past it anyway); `refuse` is
 * thrown when no buffer can be had (the interpreter sees a failed write).
 */
export function growFilesInPlace(memfs: GrowableFileSystem, limitBytes: number, refuse: () => Error): void {
  memfs.expandFileStorage = (node, capacity) => {
    const contents = node.contents
    const current = contents?.length ?? 0
    if (current >= capacity) return
    const buffer = contents?.buffer as
      | (ArrayBuffer & { resizable?: boolean; maxByteLength?: number })
      | undefined
    if (
      contents !== null &&
      buffer?.resizable === true &&
      contents.byteOffset === 0 &&
      buffer.maxByteLength !== undefined &&
      buffer.maxByteLength >= capacity
    ) {
      // A length-tracking view over the buffer: it grows with it.
      ;(buffer as unknown as { resize(length: number): void }).resize(capacity)
      return
    }
    let grown: Uint8Array
    try {
      const Resizable = ArrayBuffer as unknown as new (
        length: number,
        options: { maxByteLength: number },
      ) => ArrayBuffer
      grown = new Uint8Array(new Resizable(capacity, { maxByteLength: reservation(capacity, limitBytes) }))
    } catch {
      throw refuse()
    }
    if (contents !== null && node.usedBytes > 0) grown.set(contents.subarray(0, node.usedBytes))
    node.contents = grown
  }
}
