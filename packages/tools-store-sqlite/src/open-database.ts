/**
 * Opening the file: a better-sqlite3 connection with the busy timeout, WAL journal and the
 * configured sync, then the schema brought up to date. Any failure closes the half-open connection.
 */
import Database from 'better-sqlite3'
import type { SqliteSynchronous } from './config'
import { migrate } from './schema'

/** Whether `error` is SQLite's "database is locked" (another connection holds the lock). */
function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY'
}

/**
 * `PRAGMA journal_mode = WAL`, retried while another connection holds the lock: switching a new
 * file's journal mode can fail SQLITE_BUSY at once, without SQLite's busy handler, when several
 * processes open the file together. Retried with a short synchronous pause (the whole open is
 * synchronous) until `busyTimeoutMs`, like any other statement.
 */
function switchToWal(db: Database.Database, busyTimeoutMs: number): unknown {
  const deadline = Date.now() + busyTimeoutMs
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return db.pragma('journal_mode = WAL', { simple: true })
    } catch (error) {
      if (!isBusy(error) || Date.now() + wait > deadline) throw error
      Atomics.wait(pause, 0, 0, wait)
    }
  }
}

/** Opens (creating when missing) and migrates the database at `path`. Throws what SQLite threw. */
export function openDatabase(
  path: string,
  busyTimeoutMs: number,
  synchronous: SqliteSynchronous,
): Database.Database {
  const db = new Database(path, { timeout: busyTimeoutMs })
  try {
    // WAL: readers never block the writer and a crash mid-transaction rolls back on next open.
    // Setting it on a new file needs the lock another opener may hold: the busy timeout covers it.
    if (switchToWal(db, busyTimeoutMs) !== 'wal') {
      throw new Error('the file refuses the WAL journal (a read-only or network file system?)')
    }
    // FULL (the default) syncs the WAL on every commit: a claim that returned stays claimed even
    // through a power loss, so no body runs twice after one. NORMAL syncs at checkpoints only.
    db.pragma(synchronous === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL')
    db.pragma('foreign_keys = OFF')
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}
