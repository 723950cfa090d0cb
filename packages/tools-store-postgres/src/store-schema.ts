/**
 * The store's tables and their versioned layout. The store migrates at start, inside one
 * transaction holding a transaction-scoped advisory lock, so any number of processes starting at
 * once serialize on it: the first one migrates, the others find the schema current.
 */
import type { StatementRunner } from './postgres-connection'

/** The layout version this package writes; a database at a later version is refused. */
export const STORE_SCHEMA_VERSION = 2

/** Quoted, schema-qualified names of the store's tables. */
export interface StoreTables {
  /** The schema's plain name. */
  readonly schema: string
  /** `"schema".dsh_tool_records`: one row per record. */
  readonly records: string
  /** `"schema".dsh_tool_store_meta`: `schema_version` and nothing else yet. */
  readonly meta: string
}

/** The table names in `schema` (a plain identifier, validated by the config). */
export function storeTables(schema: string): StoreTables {
  const quoted = `"${schema}"`
  return { schema, records: `${quoted}.dsh_tool_records`, meta: `${quoted}.dsh_tool_store_meta` }
}

/**
 * Step N brings a database from version N-1 to N. Step 1 is the first released layout (records
 * without leases); step 2 adds the lease columns and the listing index. Keys compare bytewise
 * (`COLLATE "C"`), whatever the database's locale, so listings order the same on every server.
 */
const STEPS: readonly ((tables: StoreTables) => readonly string[])[] = [
  (t) => [
    `CREATE TABLE ${t.records} (
      kind text COLLATE "C" NOT NULL,
      agent text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      state text NOT NULL,
      version integer NOT NULL,
      data text NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      PRIMARY KEY (kind, agent, key)
    )`,
    `CREATE INDEX dsh_tool_records_expiry ON ${t.records} (expires_at)`,
  ],
  (t) => [
    `ALTER TABLE ${t.records} ADD COLUMN lease_owner text, ADD COLUMN lease_until bigint`,
    `CREATE INDEX dsh_tool_records_listing ON ${t.records} (kind, created_at, key)`,
  ],
]

/**
 * Bring the store's tables in `tables.schema` to `target` (default: the current version) in the
 * caller's transaction, under an advisory lock that other starting processes wait for. Throws
 * when the database is at a later version than this package knows.
 */
export async function migrateStoreSchema(
  runner: StatementRunner,
  tables: StoreTables,
  target: number = STORE_SCHEMA_VERSION,
): Promise<void> {
  await runner.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dsh-tool-store:${tables.schema}`])
  // CREATE SCHEMA IF NOT EXISTS would still need the CREATE privilege on the database.
  const found = await runner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [tables.schema])
  if (found.rowCount === 0) await runner.query(`CREATE SCHEMA "${tables.schema}"`)
  await runner.query(`CREATE TABLE IF NOT EXISTS ${tables.meta} (name text PRIMARY KEY, value text NOT NULL)`)
  const row = await runner.query<{ value: string }>(
    `SELECT value FROM ${tables.meta} WHERE name = 'schema_version'`,
  )
  const current = row.rows[0] === undefined ? 0 : Number(row.rows[0].value)
  if (current > STORE_SCHEMA_VERSION)
    throw new Error(
      `the store's tables are at schema version ${current}, newer than this package's ${STORE_SCHEMA_VERSION}: upgrade @dsh/tools-store-postgres`,
    )
  if (current >= target) return
  for (let version = current + 1; version <= target; version++) {
    for (const statement of STEPS[version - 1]!(tables)) await runner.query(statement)
  }
  await runner.query(
    `INSERT INTO ${tables.meta} (name, value) VALUES ('schema_version', $1)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
    [String(target)],
  )
}
