/**
 * The cordis service: a `ToolStateStore` at `ctx.toolStore` on PostgreSQL. It prepares its
 * tables at start (and again on the next call if the server was down then), runs every
 * operation as one statement, and ends the pool it opened when its fiber ends.
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
  type PostgresToolStoreConfig,
  PostgresToolStoreConfigSchema,
  resolvePostgresToolStoreConfig,
} from './config'
import { PostgresConnection } from './postgres-connection'
import { checkChange, checkNewRecord, storableRef, storableText } from './record-checks'
import {
  createStatement,
  getStatement,
  listStatement,
  type RecordRow,
  recordFromRow,
  type Statement,
  sweepStatement,
  updateStatement,
} from './record-statements'
import { migrateStoreSchema, type StoreTables, storeTables } from './store-schema'

/**
 * `ToolStateStore` service (ctx key `toolStore`) keeping records in PostgreSQL, shared by every
 * process and host that uses the same database and schema. Plug it with
 * `ctx.plugin(PostgresToolStore, { connectionString })` or `{ pool }`.
 */
export class PostgresToolStore extends Service implements ToolStateStore {
  /** Validator cordis applies to the plugin config. */
  static readonly Config = PostgresToolStoreConfigSchema

  /** `postgres host:port/database`, never with credentials. */
  readonly label: string
  // Plain (not #private) fields: cordis hands out proxies of services.
  private readonly connection: PostgresConnection
  private readonly tables: StoreTables
  private prepared: Promise<void> | undefined

  constructor(ctx: Context, config: PostgresToolStoreConfig) {
    super(ctx, 'toolStore')
    const resolved = resolvePostgresToolStoreConfig(config)
    const connection = new PostgresConnection(resolved)
    this.connection = connection
    this.tables = storeTables(resolved.schema)
    this.label = connection.label
    ctx.effect(() => () => connection.close(), 'tools-store-postgres/pool')
  }

  /** Prepare the tables when the plugin starts; a server that is down then fails the first call instead. */
  async [Service.init](): Promise<void> {
    await this.ready().catch(() => {})
  }

  /**
   * Resolves once the tables exist at the current schema version (migrating them if needed);
   * rejects with `StoreUnavailableError` when the server cannot be reached or holds a newer
   * layout. Every operation awaits it; a failed attempt is retried by the next call.
   */
  ready(): Promise<void> {
    this.prepared ??= this.connection
      .transaction('prepare schema', (client) => migrateStoreSchema(client, this.tables))
      .catch((error: unknown) => {
        this.prepared = undefined
        throw error
      })
    return this.prepared
  }

  /** See {@link ToolStateStore.create}. */
  async create(record: NewStoredRecord): Promise<StoredRecord | undefined> {
    checkNewRecord(record)
    return (await this.run('create', createStatement(this.tables, record)))[0]
  }

  /** See {@link ToolStateStore.get}. */
  async get(ref: StoredRecordRef): Promise<StoredRecord | undefined> {
    if (!storableRef(ref)) return undefined
    return (await this.run('get', getStatement(this.tables, ref)))[0]
  }

  /** See {@link ToolStateStore.update}: one conditional `UPDATE … WHERE version = $4`. */
  async update(
    ref: StoredRecordRef,
    expectedVersion: number,
    change: StoredRecordChange,
  ): Promise<StoredRecord | undefined> {
    checkChange(expectedVersion, change)
    if (!storableRef(ref)) return undefined
    return (await this.run('update', updateStatement(this.tables, ref, expectedVersion, change)))[0]
  }

  /** See {@link ToolStateStore.list}. */
  async list(query: StoredRecordQuery): Promise<StoredRecord[]> {
    const filters = [query.kind, query.agent ?? '', query.state ?? '']
    if (!filters.every(storableText)) return []
    return this.run('list', listStatement(this.tables, query))
  }

  /** See {@link ToolStateStore.sweep}. */
  async sweep(now: number): Promise<number> {
    if (Number.isNaN(now)) throw new TypeError('sweep(now) needs a number of epoch ms')
    await this.ready()
    const statement = sweepStatement(this.tables, now)
    const result = await this.connection.query('sweep', statement.text, statement.values)
    return result.rowCount ?? 0
  }

  private async run(operation: string, statement: Statement): Promise<StoredRecord[]> {
    await this.ready()
    const result = await this.connection.query<RecordRow>(operation, statement.text, statement.values)
    return result.rows.map(recordFromRow)
  }
}
