import { constants } from 'node:fs'
import fs from 'node:fs/promises'
import { looksBinary } from './internal/looks-binary'
import type { PathGuard } from './path-guard'

/** A file's bytes for grep, or why it is skipped. */
export type GrepFileBytes =
  | { readonly status: 'read'; readonly bytes: Uint8Array }
  | { readonly status: 'skipped'; readonly reason: 'binary' | 'too-large' | 'unreadable' | 'changed' }

/**
 * Read one file for grep. The file is opened without following a final symlink, must still be
 * the file at `real` inside a root (a directory of the walk swapped for a symlink to the outside
 * since it was listed is caught here, before a byte is read) and a regular file within
 * `maxFileBytes`; binary files are skipped. The bytes live in their own
 * `ArrayBuffer` (never Node's shared pool) so they can be transferred to the grep worker.
 */
export async function readGrepFile(
  real: string,
  maxFileBytes: number,
  guard: PathGuard,
): Promise<GrepFileBytes> {
  let bytes: Uint8Array
  try {
    const handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    try {
      const stat = await handle.stat()
      if (!(await guard.isOpenedInside(handle, stat, real))) return { status: 'skipped', reason: 'changed' }
      if (!stat.isFile()) return { status: 'skipped', reason: 'unreadable' }
      if (stat.size > maxFileBytes) return { status: 'skipped', reason: 'too-large' }
      // One read of size + 1 bytes: a file that grew past its stat size is cut at the cap.
      bytes = new Uint8Array(Math.min(stat.size + 1, maxFileBytes))
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0)
      bytes = bytes.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  } catch {
    return { status: 'skipped', reason: 'unreadable' }
  }
  if (looksBinary(bytes)) return { status: 'skipped', reason: 'binary' }
  return { status: 'read', bytes }
}
