import type { Stats } from 'node:fs'

/** What a read remembers about a file: enough to tell whether it changed since. */
interface FileStamp {
  readonly mtimeMs: number
  readonly size: number
  readonly ino: number
}

/** Why {@link ReadTracker.check} refuses a write. */
export type ReadTrackerRefusal = 'unread' | 'changed'

const MAX_ENTRIES = 10_000

/**
 * Backs the read-before-write policy: remembers, per agent, the mtime/size/inode of each file
 * as it was last read or written through the fs tools. A write is allowed when the file is
 * unchanged since. Bounded (oldest entries are forgotten first).
 */
export class ReadTracker {
  private readonly stamps = new Map<string, FileStamp>()

  /** Remember `stat` as the version of `real` that `agent` has seen. */
  record(agent: string | undefined, real: string, stat: Stats): void {
    const key = keyOf(agent, real)
    this.stamps.delete(key)
    this.stamps.set(key, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino })
    if (this.stamps.size > MAX_ENTRIES) this.stamps.delete(this.stamps.keys().next().value!)
  }

  /** `undefined` when `agent` has seen the current version of `real`, else why not. */
  check(agent: string | undefined, real: string, stat: Stats): ReadTrackerRefusal | undefined {
    const stamp = this.stamps.get(keyOf(agent, real))
    if (stamp === undefined) return 'unread'
    const same = stamp.mtimeMs === stat.mtimeMs && stamp.size === stat.size && stamp.ino === stat.ino
    return same ? undefined : 'changed'
  }
}

function keyOf(agent: string | undefined, real: string): string {
  return `${agent ?? ''}\u0000${real}`
}
