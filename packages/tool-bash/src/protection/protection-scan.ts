import { type BigIntStats, lstatSync, opendirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { type Listed, ListingCache } from './listing-cache'
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
  /** Aborting fails the scan with the signal's reason (checked between batches of directories). */
  readonly signal?: AbortSignal
  /** Listings from earlier scans: a directory whose state is unchanged is not read again. */
  readonly cache?: ListingCache
}

// Directories visited between two turns of the thread's event loop (where an abort lands).
const BATCH = 256

/**
 * Every protected entry under `roots`: each entry with a protected name and each git-shaped
 * directory, found by reading every directory (no symlink is followed, and a protected
 * directory is not entered — it is protected whole). Nothing is assumed about the tree: it has
 * no depth limit and depends on no external program.
 *
 * It uses synchronous file calls, several times faster than their promise forms: it runs in the
 * sandbox planner's worker thread, never on the host's, and yields every few hundred
 * directories so an abort can land.
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
  const count = (entries: number) => {
    read += entries
    if (read > limits.maxEntries) {
      throw new ProtectionScanError(
        `the writable roots hold more than ${limits.maxEntries} entries (sandbox.maxScanEntries)`,
      )
    }
  }
  // Roots may nest (an allowWrite directory inside the workdir): each directory is read once.
  const seen = new Set<string>()
  for (let visited = 0; queue.length > 0; visited++) {
    if (visited % BATCH === BATCH - 1) await new Promise((resolve) => setImmediate(resolve))
    limits.signal?.throwIfAborted()
    const { path: dir, root } = queue.pop()!
    if (seen.has(dir)) continue
    seen.add(dir)
    const entries = readListing(dir, root, count, limits.cache)
    if (!root && looksLikeGitDir(new Set(entries.map((entry) => entry.name)))) {
      record(found, dir, 'git-dir')
      continue
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (isProtectedName(entry.name)) record(found, path, 'named')
      else if (entry.directory) queue.push({ path, root: false })
    }
  }
  return found
}

/** The entries of `dir`: from the cache when its state is unchanged, else read. */
function readListing(
  dir: string,
  root: boolean,
  count: (entries: number) => void,
  cache: ListingCache | undefined,
): readonly Listed[] {
  if (cache === undefined) return listDirectory(dir, root, count)
  // A root may be a symlink to the directory; below it, only real directories are queued.
  const stats = statOf(dir, root)
  if (stats === undefined) return listDirectory(dir, root, count)
  const kept = cache.get(dir, ListingCache.keyOf(stats))
  if (kept !== undefined) {
    count(kept.length)
    return kept
  }
  const entries = listDirectory(dir, root, count)
  cache.set(dir, stats, entries)
  return entries
}

function statOf(path: string, follow: boolean): BigIntStats | undefined {
  try {
    return (follow ? statSync : lstatSync)(path, { bigint: true })
  } catch {
    return undefined
  }
}

const GONE = new Set(['ENOENT', 'ENOTDIR'])

/** The entries of `dir`, read in small batches so that `count` bounds the memory too. */
function listDirectory(dir: string, root: boolean, count: (entries: number) => void): Listed[] {
  const entries: Listed[] = []
  let handle: ReturnType<typeof opendirSync>
  try {
    handle = opendirSync(dir, { bufferSize: 128 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Removed while the walk ran (or a missing allowWrite root): nothing there to protect.
    if (code !== undefined && GONE.has(code)) return []
    throw new ProtectionScanError(
      `cannot read ${root ? 'writable root' : 'directory'} ${dir} (${code ?? (error as Error).message})`,
      root ? undefined : dir,
    )
  }
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      count(1)
      entries.push({ name: entry.name, directory: entry.isDirectory() })
    }
  } finally {
    handle.closeSync()
  }
  return entries
}

function record(found: ProtectedEntry[], path: string, kind: ProtectedEntry['kind']): void {
  const stats = statOf(path, false)
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
