/**
 * The one way tests reach PostgreSQL (other packages import it by relative path):
 *
 * 1. `DSH_TEST_PG_URL` — the server `.ci/run` installs and starts. With `CI=true` it is required:
 *    the PostgreSQL tests run against a real server in CI, never skip, never fall back.
 * 2. A local server on the default port, reached with `pg`'s defaults (`PGUSER`, `PGPASSWORD`, …).
 * 3. PGlite (PostgreSQL compiled to WebAssembly) behind `@electric-sql/pglite-socket`, started
 *    once per test process on a free loopback port and reached through `pg` like any server.
 *
 * Each test file takes its own schema ({@link TestPostgres.schema}, more with `newSchema()`), so
 * files run in parallel on one server; `dispose()` drops them.
 */
import pg from 'pg'

/** Where the server came from. */
export type TestPostgresSource = 'env' | 'local' | 'pglite'

/** A server and the schemas one test file uses on it. */
export interface TestPostgres {
  /** A `postgres://` URL child processes can use too. */
  readonly connectionString: string
  readonly source: TestPostgresSource
  /** This file's first schema (not created yet: the store creates it). */
  readonly schema: string
  /** Another fresh schema name, dropped by `dispose()` as well. */
  newSchema(): string
  /** Run one statement as an administrator of the test database (seeding, tampering). */
  sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>
  /** Drop every schema handed out and close the admin connection. */
  dispose(): Promise<void>
}

interface Server {
  readonly connectionString: string
  readonly source: TestPostgresSource
}

let found: Promise<Server> | undefined

async function reachable(settings: pg.ClientConfig): Promise<boolean> {
  const client = new pg.Client({ ...settings, connectionTimeoutMillis: 1_500 })
  client.on('error', () => {})
  try {
    await client.connect()
    // The tests need to create schemas; a server that refuses that is no use to them.
    await client.query('CREATE SCHEMA IF NOT EXISTS dsh_probe')
    await client.query('DROP SCHEMA IF EXISTS dsh_probe')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

function localUrl(): string | undefined {
  // pg's own defaults (and PG* environment variables), over TCP so child processes reach it too.
  const defaults = new pg.Client()
  const host = defaults.host
  if (host.startsWith('/')) return undefined
  const auth =
    encodeURIComponent(defaults.user ?? '') +
    (defaults.password ? `:${encodeURIComponent(String(defaults.password))}` : '')
  return `postgres://${auth}@${host}:${defaults.port}/${encodeURIComponent(defaults.database ?? '')}`
}

async function startPglite(): Promise<Server> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket')
  const db = await PGlite.create()
  // The multiplexer serializes statements and keeps a transaction's statements together.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 })
  await server.start()
  // Nothing of it may keep the test process alive once the tests are done.
  ;(server as unknown as { server: { unref(): void } }).server.unref()
  return { connectionString: `postgres://postgres@${server.getServerConn()}/postgres`, source: 'pglite' }
}

async function findServer(): Promise<Server> {
  const fromEnv = process.env['DSH_TEST_PG_URL']
  if (fromEnv) return { connectionString: fromEnv, source: 'env' }
  if (process.env['CI'] === 'true')
    throw new Error(
      'DSH_TEST_PG_URL is not set: in CI the PostgreSQL tests run against the server .ci/run starts',
    )
  const local = localUrl()
  if (local !== undefined && (await reachable({ connectionString: local })))
    return { connectionString: local, source: 'local' }
  return startPglite()
}

/** The test server (found once per process). */
export function testPostgresServer(): Promise<Server> {
  found ??= findServer()
  return found
}

function schemaName(tag: string): string {
  const clean = tag
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30)
  return `t_${clean}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
}

/** A server and a fresh schema for one test file; `tag` goes into the schema names. */
export async function testPostgres(tag: string): Promise<TestPostgres> {
  const server = await testPostgresServer()
  const admin = new pg.Pool({ connectionString: server.connectionString, max: 2, allowExitOnIdle: true })
  admin.on('error', () => {})
  const schemas: string[] = []
  const newSchema = () => {
    const name = schemaName(tag)
    schemas.push(name)
    return name
  }
  return {
    connectionString: server.connectionString,
    source: server.source,
    schema: newSchema(),
    newSchema,
    async sql(text, values) {
      return (await admin.query(text, values)).rows
    },
    async dispose() {
      try {
        for (const name of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)
      } finally {
        await admin.end()
      }
    },
  }
}
