/**
 * The cordis service: a `ToolStateStore` at `ctx.toolStore` on one SQLite file. It closes the
 * database when its fiber is disposed.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type {
  NewStoredRecord,
  StoredRecord,
  StoredRecordChange,
  StoredRecordQuery,
  StoredRecordRef,
  ToolStateStore,
} from '@dsh/tools-core'
import {
  resolveSqliteToolStoreConfig,
  type SqliteToolStoreConfig,
  type SqliteToolStoreConfigInput,
  SqliteToolStoreConfigSchema,
} from './config'
import { checkChange, checkNewRecord, checkQuery, checkRef, checkTime } from './record-input'
import { SqliteConnection } from './sqlite-connection'

/**
 * `ToolStateStore` service (ctx key `toolStore`) on one SQLite file, through better-sqlite3 in
 * WAL mode. Plug it with `ctx.plugin(SqliteToolStore, { path })`. Every process that opens the
 * same file on one host shares the records; claims are exactly-once across them.
 */
export class SqliteToolStore extends Service implements ToolStateStore {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = SqliteToolStoreConfigSchema

  /** `sqlite <absolute path>`: names the store in `STORE_UNAVAILABLE` messages. */
  readonly label: string
  /** The validated configuration in force. */
  readonly config: SqliteToolStoreConfig
  // A plain (not #private) field: cordis hands out proxies of services.
  private readonly connection: SqliteConnection

  constructor(ctx: Context, config: SqliteToolStoreConfigInput) {
    super(ctx, 'toolStore')
    this.config = resolveSqliteToolStoreConfig(config)
    this.label = `sqlite ${this.config.path}`
    const connection = new SqliteConnection(
      this.config.path,
      this.config.busyTimeoutMs,
      this.config.synchronous,
      this.label,
    )
    this.connection = connection
    ctx.effect(() => () => connection.close(), 'tools-store-sqlite/database')
    const every = this.config.sweepIntervalMs
    if (every !== undefined) {
      const logger = ctx.logger('tools-store-sqlite')
      ctx.effect(() => {
        const timer = setInterval(() => {
          try {
            connection.run((statements) => statements.sweep(Date.now()))
          } catch (error) {
            logger.warn(`periodic sweep failed: ${(error as Error).message}`)
          }
        }, every)
        // The sweep is housekeeping: it never keeps a process alive on its own.
        timer.unref()
        return () => clearInterval(timer)
      }, 'tools-store-sqlite/sweep')
    }
  }

  /** See {@link ToolStateStore.create}. */
  async create(record: NewStoredRecord): Promise<StoredRecord | undefined> {
    checkNewRecord(record)
    return this.connection.run((statements) => statements.create(record))
  }

  /** See {@link ToolStateStore.get}. */
  async get(ref: StoredRecordRef): Promise<StoredRecord | undefined> {
    checkRef(ref)
    return this.connection.run((statements) => statements.get(ref))
  }

  /** See {@link ToolStateStore.update}: one `UPDATE … WHERE … AND version = ? RETURNING` statement. */
  async update(
    ref: StoredRecordRef,
    expectedVersion: number,
    change: StoredRecordChange,
  ): Promise<StoredRecord | undefined> {
    checkChange(ref, expectedVersion, change)
    return this.connection.run((statements) => statements.update(ref, expectedVersion, change))
  }

  /** See {@link ToolStateStore.list}. */
  async list(query: StoredRecordQuery): Promise<StoredRecord[]> {
    checkQuery(query)
    return this.connection.run((statements) => statements.list(query))
  }

  /** See {@link ToolStateStore.sweep}. */
  async sweep(now: number): Promise<number> {
    checkTime(now, 'now')
    return this.connection.run((statements) => statements.sweep(now))
  }
}
