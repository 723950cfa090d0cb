/**
 * The one place the store talks to `pg`: it owns (or borrows) the pool, bounds every statement,
 * and turns every driver failure into a `StoreUnavailableError` that names the server and never
 * the password. The store's statements and its migration go through {@link PostgresConnection}.
 */
import { StoreUnavailableError } from '@dsh/tools-core'
import pg from 'pg'
import type { ResolvedPostgresConnectionStringConfig, ResolvedPostgresToolStoreConfig } from './config'

/** How long past `statementTimeoutMs` the store waits for the server's own cancel before dropping the connection. */
const CLIENT_GRACE_MS = 1_000

/** The part of a `pg` client the store uses. */
export interface StatementRunner {
  query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<Row>>
}

interface Target {
  readonly label: string
  readonly password: string | undefined
}

/** `postgres host:port/database` from the settings `pg` itself will use (defaults and env included). */
function describeTarget(settings: pg.ClientConfig): Target {
  // A Client parses the settings exactly as the pool will, without connecting.
  const client = new pg.Client(settings)
  const password = typeof client.password === 'string' && client.password !== '' ? client.password : undefined
  return { label: `postgres ${client.host}:${client.port}/${client.database ?? ''}`, password }
}

function openPool(config: ResolvedPostgresConnectionStringConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.connectionString,
    connectionTimeoutMillis: config.connectTimeoutMs,
    statement_timeout: config.statementTimeoutMs,
    max: config.maxConnections,
    // Names the store's sessions in pg_stat_activity.
    application_name: 'dsh-tool-store',
    // Idle connections do not keep the process alive; a finished program exits.
    allowExitOnIdle: true,
  })
  // An idle client whose server went away emits 'error' on the pool; unhandled it would crash
  // the process. The next statement gets a fresh connection or a StoreUnavailableError.
  pool.on('error', () => {})
  return pool
}

/** A pool plus the store's failure policy; `close()` ends the pool only when the store opened it. */
export class PostgresConnection {
  /** Names the server in messages: `postgres host:port/database`. */
  readonly label: string
  private readonly pool: pg.Pool
  private readonly ownsPool: boolean
  private readonly password: string | undefined
  private readonly clientDeadlineMs: number

  constructor(config: ResolvedPostgresToolStoreConfig) {
    const owned = 'connectionString' in config
    const target = describeTarget(owned ? { connectionString: config.connectionString } : config.pool.options)
    this.label = target.label
    this.password = target.password
    this.pool = owned ? openPool(config) : config.pool
    this.ownsPool = owned
    this.clientDeadlineMs = config.statementTimeoutMs + CLIENT_GRACE_MS
  }

  /** Run one statement on a pooled connection. */
  query<Row extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<Row>> {
    return this.withClient(operation, (client) => client.query<Row>(text, values))
  }

  /** Run `work` inside one transaction on one connection, committed when it resolves. */
  transaction<T>(operation: string, work: (client: StatementRunner) => Promise<T>): Promise<T> {
    return this.withClient(operation, async (client) => {
      await client.query('BEGIN')
      try {
        const result = await work(client)
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      }
    })
  }

  /** End the pool if the store opened it; a borrowed pool is left to its owner. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end()
  }

  private async withClient<T>(operation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient
    try {
      client = await this.pool.connect()
    } catch (error) {
      throw this.unavailable(operation, error)
    }
    // A checked-out client emits 'error' itself when its connection dies between statements.
    const ignore = () => {}
    client.on('error', ignore)
    let broken: unknown
    // A backstop for a server that stopped answering: drop the connection, failing the statement.
    const deadline = setTimeout(() => {
      broken = new Error(`no answer within ${this.clientDeadlineMs} ms`)
      ;(client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
    }, this.clientDeadlineMs)
    try {
      return await work(client)
    } catch (error) {
      broken ??= isConnectionLevel(error) ? error : undefined
      throw this.unavailable(operation, broken ?? error)
    } finally {
      clearTimeout(deadline)
      client.off('error', ignore)
      // A broken connection is discarded, never handed to the next statement.
      client.release(broken === undefined ? undefined : true)
    }
  }

  private unavailable(operation: string, error: unknown): StoreUnavailableError {
    // The driver's text is scrubbed, not the label: the label never holds the password.
    const reason = reasonOf(error)
    const scrubbed = this.password === undefined ? reason : reason.split(this.password).join('***')
    return new StoreUnavailableError(`${this.label} unavailable: ${operation} failed: ${scrubbed}`, {
      cause: error,
    })
  }
}

/** A readable reason: Node reports a refused dual-stack connect as an AggregateError with no message. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  if (error.message !== '') return error.message
  const inner = (error as Partial<AggregateError>).errors?.[0]
  if (inner instanceof Error && inner.message !== '') return inner.message
  return (error as { code?: string }).code ?? error.name
}

/** Errors after which the connection cannot be trusted with another statement. */
function isConnectionLevel(error: unknown): boolean {
  // Anything but an error the server reported (a socket error, a driver error, one from another
  // copy of pg) may have left the connection mid-protocol: drop it.
  if (!(error instanceof pg.DatabaseError)) return true
  // SQLSTATE class 08 (connection exception) and 57P (shutdown, terminated by an administrator).
  // A statement timeout (57014) leaves the session usable.
  const code = error.code ?? ''
  return code.startsWith('08') || code.startsWith('57P')
}
