/**
 * Opening the file: a better-sqlite3 connection with the busy timeout, WAL journal and the
 * configured sync, then the schema brought up to date. Any failure closes the half-open connection.
 */
import Database from 'better-sqlite3'
import type { SqliteSynchronous } from './config'
import { migrate } from './schema'

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
    if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') {
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
