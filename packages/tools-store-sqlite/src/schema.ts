/**
 * The database layout, versioned. `tool_store_meta` holds `schema_version`; opening a file
 * brings it to {@link SCHEMA_VERSION} inside one `BEGIN IMMEDIATE` transaction, so two processes
 * opening the same new file at once serialize on SQLite's write lock: the first migrates, the
 * second finds the work done.
 */
import type Database from 'better-sqlite3'

/** The layout this package reads and writes. */
export const SCHEMA_VERSION = 2

/**
 * Version 1: records without leases. Kept verbatim — it is what migration starts from, and what
 * the tests write to prove that migration works.
 */
export const SCHEMA_V1 = `
CREATE TABLE tool_records (
  kind TEXT NOT NULL,
  agent TEXT NOT NULL,
  key TEXT NOT NULL,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (kind, agent, key)
) STRICT;
CREATE INDEX tool_records_by_age ON tool_records (kind, created_at, key);
CREATE INDEX tool_records_by_agent_age ON tool_records (kind, agent, created_at, key);
CREATE INDEX tool_records_by_expiry ON tool_records (expires_at);
`

/** Each step takes the layout from version `index + 1` to `index + 2`. */
const STEPS: readonly string[] = [
  // 1 → 2: leases (owner and expiry of a claim; both NULL when unclaimed).
  `ALTER TABLE tool_records ADD COLUMN lease_owner TEXT;
   ALTER TABLE tool_records ADD COLUMN lease_until INTEGER;`,
]

const META = `CREATE TABLE IF NOT EXISTS tool_store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT`

/** The version a file is at: 0 for a new file, or the meta table's `schema_version`. */
export function schemaVersionOf(db: Database.Database): number {
  const row = db.prepare(`SELECT value FROM tool_store_meta WHERE name = 'schema_version'`).get() as
    | { value: string }
    | undefined
  return row === undefined ? 0 : Number(row.value)
}

/** Writes `version` as the file's schema version (the meta table must exist). */
export function setSchemaVersion(db: Database.Database, version: number): void {
  db.prepare(
    `INSERT INTO tool_store_meta (name, value) VALUES ('schema_version', ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  ).run(String(version))
}

/** Creates the meta table when missing (idempotent; run inside the migration transaction). */
export function ensureMeta(db: Database.Database): void {
  db.exec(META)
}

/**
 * Brings the file to {@link SCHEMA_VERSION}, atomically. A file written by a newer version of
 * this package is refused rather than guessed at.
 */
export function migrate(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    ensureMeta(db)
    const from = schemaVersionOf(db)
    if (!Number.isInteger(from) || from < 0 || from > SCHEMA_VERSION) {
      throw new Error(
        `schema version ${String(from)} is not one this package knows (it writes ${SCHEMA_VERSION})`,
      )
    }
    if (from === 0) db.exec(SCHEMA_V1)
    for (let version = Math.max(from, 1); version < SCHEMA_VERSION; version++)
      db.exec(STEPS[version - 1] as string)
    if (from !== SCHEMA_VERSION) setSchemaVersion(db, SCHEMA_VERSION)
    db.exec('COMMIT')
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw error
  }
}
