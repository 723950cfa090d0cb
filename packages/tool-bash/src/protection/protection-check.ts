import { randomBytes } from 'node:crypto'
import { opendir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProtectedEntry } from './protection-scan'

/** A protected entry a command created or changed, and where it was moved so nothing obeys it. */
export interface MovedEntry {
  readonly path: string
  /** Where it is now, or `undefined` when it could not be moved (the reason is in `error`). */
  readonly movedTo?: string
  readonly error?: string
}

/**
 * The entries of `after` that are not an unchanged entry of `before`: new ones (by identity, so
 * a protected directory that was merely moved with its parent is not new), and files whose size
 * or modification time differ. Empty files and empty directories are left out: they hold no
 * setting (and are what the sandbox leaves as mount points while other calls run).
 */
export async function changedEntries(
  before: readonly ProtectedEntry[],
  after: readonly ProtectedEntry[],
): Promise<ProtectedEntry[]> {
  const known = new Map(before.map((entry) => [entry.identity, entry]))
  const changed: ProtectedEntry[] = []
  for (const entry of after) {
    const previous = known.get(entry.identity)
    const same =
      previous !== undefined &&
      previous.directory === entry.directory &&
      (entry.directory || (previous.size === entry.size && previous.mtimeMs === entry.mtimeMs))
    if (!same && !(await isEmpty(entry))) changed.push(entry)
  }
  return changed
}

/**
 * Move a changed entry out of the way, keeping its content for the user to inspect: a named
 * entry becomes `<name>.dsh-refused-<random>`; a git-shaped directory keeps its name and loses
 * its `HEAD` (renamed likewise), so git no longer takes it for a repository.
 */
export async function moveAside(entry: ProtectedEntry): Promise<MovedEntry> {
  const target = entry.kind === 'git-dir' ? join(entry.path, 'HEAD') : entry.path
  // Unguessable, so the command cannot have placed something at the target beforehand.
  const movedTo = `${target}.dsh-refused-${randomBytes(6).toString('hex')}`
  try {
    await rename(target, movedTo)
    return { path: entry.path, movedTo }
  } catch (error) {
    return { path: entry.path, error: (error as Error).message }
  }
}

async function isEmpty(entry: ProtectedEntry): Promise<boolean> {
  if (!entry.directory) return entry.size === 0 && entry.kind === 'named'
  try {
    const handle = await opendir(entry.path)
    try {
      return (await handle.read()) === null
    } finally {
      await handle.close().catch(() => {})
    }
  } catch {
    return false
  }
}
