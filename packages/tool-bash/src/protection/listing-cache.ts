import type { BigIntStats } from 'node:fs'

/** One directory entry as the protection scan needs it. */
export interface Listed {
  readonly name: string
  readonly directory: boolean
}

// A listing read within this long of its directory's last change is not kept: the kernel's
// timestamps are coarse (a clock tick), so a change made in the same tick right after the read
// would leave the ctime as it was ("racy" entries, as git calls them).
const RACY_MS = 200

// Directories remembered at most; past it the cache starts over (it only saves reads).
const MAX_DIRECTORIES = 200_000

/**
 * Directory listings kept between scans, each under its directory's `dev:ino:ctime`. Any change
 * to a directory's entries (create, remove, rename, and `utimes` or `chmod` of the directory
 * itself) sets its ctime to the current time, which a process cannot choose: an unchanged key
 * means unchanged names. So a scan after a call re-reads only the directories the call touched,
 * and one stat replaces each read of the others.
 */
export class ListingCache {
  readonly #listings = new Map<string, { readonly key: string; readonly entries: readonly Listed[] }>()

  /** The key of a directory's current state. */
  static keyOf(stats: BigIntStats): string {
    return `${stats.dev}:${stats.ino}:${stats.ctimeNs}`
  }

  /** The listing of `dir` if it was read in state `key`. */
  get(dir: string, key: string): readonly Listed[] | undefined {
    const kept = this.#listings.get(dir)
    return kept?.key === key ? kept.entries : undefined
  }

  /** Remember the listing of `dir`, read after a stat that gave `stats`, unless it is racy. */
  set(dir: string, stats: BigIntStats, entries: readonly Listed[]): void {
    if (Date.now() - Number(stats.ctimeMs) < RACY_MS) {
      this.#listings.delete(dir)
      return
    }
    if (this.#listings.size >= MAX_DIRECTORIES) this.#listings.clear()
    this.#listings.set(dir, { key: ListingCache.keyOf(stats), entries })
  }
}
