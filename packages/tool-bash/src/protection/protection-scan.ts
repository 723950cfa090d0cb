import { lstat, opendir } from 'node:fs/promises'
import { join } from 'node:path'
import { isProtectedName, looksLikeGitDir } from './protected-names'

/** One protected entry found under a writable root, with what identifies its content. */
export interface ProtectedEntry {
  readonly path: string
  /** `'named'`: its name is protected; `'git-dir'`: a directory git accepts as a repository. */
  readonly kind: 'named' | 'git-dir'
  /** `dev:ino` — the same file wherever it is moved to. */
  readonly identity: string
  readonly directory: boolean
  readonly size: number
  readonly mtimeMs: number
}

/** A scan that could not finish: too many entries, or a directory it cannot read. */
export class ProtectionScanError extends Error {
  /** @param path — the unreadable directory, when that is the cause. */
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message)
    this.name = 'ProtectionScanError'
  }
}

/** Bounds of one scan. */
export interface ScanLimits {
  /** Entries read in all directories together; one more fails the scan. */
  readonly maxEntries: number
  /** Aborting fails the scan with the signal's reason. */
  readonly signal?: AbortSignal
}

// Directories read at once: enough to keep the disk busy, few enough to keep the fd count low.
const CONCURRENCY = 8

/**
 * Every protected entry under `roots`: each entry with a protected name and each git-shaped
 * directory, found by reading every directory (no symlink is followed, and a protected
 * directory is not entered — it is protected whole). Nothing is assumed about the tree: it has
 * no depth limit and depends on no external program.
 *
 * @throws {ProtectionScanError} past `maxEntries` entries, or when a directory cannot be read —
 *   the protection cannot be computed, so the caller must refuse, not pass.
 */
export async function scanProtectedEntries(
  roots: readonly string[],
  limits: ScanLimits,
): Promise<ProtectedEntry[]> {
  const found: ProtectedEntry[] = []
  const queue = roots.map((path) => ({ path, root: true }))
  let read = 0

  const visit = async (dir: string, root: boolean): Promise<void> => {
    limits.signal?.throwIfAborted()
    const entries = await listDirectory(dir, root, () => {
      if (++read > limits.maxEntries) {
        throw new ProtectionScanError(
          `the writable roots hold more than ${limits.maxEntries} entries (sandbox.maxScanEntries)`,
        )
      }
    })
    if (!root && looksLikeGitDir(new Set(entries.map((entry) => entry.name)))) {
      await record(found, dir, 'git-dir')
      return
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (isProtectedName(entry.name)) await record(found, path, 'named')
      else if (entry.directory) queue.push({ path, root: false })
    }
  }

  let active = 0
  await new Promise<void>((resolve, reject) => {
    let failed = false
    const pump = () => {
      while (!failed && active < CONCURRENCY && queue.length > 0) {
        const next = queue.pop()!
        active++
        visit(next.path, next.root).then(
          () => {
            active--
            pump()
          },
          (error: unknown) => {
            failed = true
            reject(error)
          },
        )
      }
      if (!failed && active === 0 && queue.length === 0) resolve()
    }
    pump()
  })
  return found
}

interface Listed {
  readonly name: string
  readonly directory: boolean
}

const GONE = new Set(['ENOENT', 'ENOTDIR'])

/** The entries of `dir`, read in small batches so that `count` bounds the memory too. */
async function listDirectory(dir: string, root: boolean, count: () => void): Promise<Listed[]> {
  const entries: Listed[] = []
  try {
    // The iterator closes the directory however the loop ends.
    for await (const entry of await opendir(dir, { bufferSize: 128 })) {
      count()
      entries.push({ name: entry.name, directory: entry.isDirectory() })
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Removed while the walk ran (or a missing allowWrite root): nothing there to protect.
    if (code !== undefined && GONE.has(code)) return []
    if (error instanceof ProtectionScanError) throw error
    if (code === undefined) throw error
    throw new ProtectionScanError(
      `cannot read ${root ? 'writable root' : 'directory'} ${dir} (${code})`,
      root ? undefined : dir,
    )
  }
  return entries
}

async function record(found: ProtectedEntry[], path: string, kind: ProtectedEntry['kind']): Promise<void> {
  const stats = await lstat(path, { bigint: true }).catch(() => undefined)
  if (stats === undefined) return // removed since it was listed
  found.push({
    path,
    kind,
    identity: `${stats.dev}:${stats.ino}`,
    directory: stats.isDirectory(),
    size: Number(stats.size),
    mtimeMs: Number(stats.mtimeMs),
  })
}
