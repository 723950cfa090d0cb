import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits for the file (e.g. the mode of the file being replaced). Default `0o666 & ~umask`. */
  readonly mode?: number
  /**
   * Runs after the temp file is complete and synced, right before the rename commits it; a
   * throw aborts the write (the temp file is removed, the target untouched). The fs tools use
   * it to re-verify confinement of the directory.
   */
  readonly beforeCommit?: (tempPath: string) => Promise<void> | void
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/**
 * Replace `target` atomically: write a temp file in the same directory, `fsync` it, then
 * `rename` it over the target (and best-effort `fsync` the directory). Readers see the old or
 * the new content, never a mix; a failure at any point leaves the target as it was and
 * removes the temp file. `rename` replaces a final-component symlink itself — it never
 * writes through it. The parent directory must exist.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const directory = path.dirname(target)
  const tempPath = path.join(
    directory,
    `.${namePrefix(path.basename(target))}.${randomBytes(6).toString('hex')}.tmp`,
  )
  const handle = await fs.open(tempPath, TEMP_FLAGS, options.mode ?? 0o666)
  let committed = false
  try {
    try {
      await handle.writeFile(data)
      // open() applies the umask; an explicit chmod restores the exact mode being preserved.
      if (options.mode !== undefined) await handle.chmod(options.mode)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await options.beforeCommit?.(tempPath)
    await fs.rename(tempPath, target)
    committed = true
  } finally {
    if (!committed) await fs.rm(tempPath, { force: true })
  }
  await syncDirectory(directory)
}

/**
 * The target's name cut to at most 200 UTF-8 bytes (whole characters), so the temp name — the
 * name plus 18 bytes — stays within NAME_MAX (255) even for a target name at that limit.
 */
function namePrefix(name: string): string {
  let prefix = ''
  let bytes = 0
  for (const character of name) {
    bytes += Buffer.byteLength(character)
    if (bytes > 200) break
    prefix += character
  }
  return prefix
}

async function syncDirectory(directory: string): Promise<void> {
  // Durability of the rename itself; unsupported on some platforms/filesystems, so best effort.
  const handle = await fs.open(directory, constants.O_RDONLY).catch(() => undefined)
  if (handle === undefined) return
  await handle.sync().catch(() => undefined)
  await handle.close()
}
