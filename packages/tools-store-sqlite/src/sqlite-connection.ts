/**
 * One lazily opened connection and the one place SQLite failures become
 * `StoreUnavailableError`: a busy lock past the timeout, an unreadable, corrupt or foreign file,
 * a missing directory, a closed store. The host never sees a raw SQLite error or crashes on one.
 */
import { StoreUnavailableError } from '@dsh/tools-core'
import type Database from 'better-sqlite3'
import type { SqliteSynchronous } from './config'
import { openDatabase } from './open-database'
import { RecordStatements } from './record-statements'

/** The connection behind a `SqliteToolStore`. */
export class SqliteConnection {
  private db: Database.Database | undefined
  private statements: RecordStatements | undefined
  private closed = false

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
    private readonly synchronous: SqliteSynchronous,
    private readonly label: string,
  ) {}

  /**
   * Runs `operation` on the statements, opening (and migrating) the file first when needed —
   * again on every call after a failed open, so a store whose directory appears later recovers.
   */
  run<T>(operation: (statements: RecordStatements) => T): T {
    if (this.closed) throw new StoreUnavailableError(`${this.label}: the store is closed`)
    try {
      return operation(this.open())
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new StoreUnavailableError(`${this.label}: ${reason}`, { cause: error })
    }
  }

  /** Closes the connection; later calls reject `STORE_UNAVAILABLE`. Idempotent. */
  close(): void {
    this.closed = true
    const db = this.db
    this.db = undefined
    this.statements = undefined
    db?.close()
  }

  private open(): RecordStatements {
    if (this.statements !== undefined) return this.statements
    const db = openDatabase(this.path, this.busyTimeoutMs, this.synchronous)
    try {
      this.statements = new RecordStatements(db)
    } catch (error) {
      db.close()
      throw error
    }
    this.db = db
    return this.statements
  }
}
