import type { FileHandle } from 'node:fs/promises'

const CHUNK_BYTES = 64 * 1024

/**
 * Read an open file from its start, but never more than `limit` bytes: a file that grew after
 * it was measured (or is sparse, or endless) cannot make the caller load more than it allowed.
 * Returns `undefined` when the file holds more than `limit` bytes.
 */
export async function readBounded(handle: FileHandle, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let length = 0
  for (;;) {
    // One byte more than allowed tells "exactly at the limit" from "over it".
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit + 1 - length))
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, length)
    if (bytesRead === 0) break
    chunks.push(chunk.subarray(0, bytesRead))
    length += bytesRead
    if (length > limit) return undefined
  }
  return Buffer.concat(chunks, length)
}
