/**
 * The SQL of the store, prepared once per connection, and the mapping between rows and records.
 * Every state change is ONE statement: `INSERT … ON CONFLICT DO NOTHING RETURNING` to create,
 * `UPDATE … WHERE kind AND agent AND key AND version RETURNING` to compare-and-set — SQLite runs
 * each atomically under its write lock, which is what makes a claim exactly-once across
 * processes sharing the file.
 */
import type {
  NewStoredRecord,
  StoredRecord,
  StoredRecordChange,
  StoredRecordQuery,
  StoredRecordRef,
} from '@dsh/tools-core'
import type Database from 'better-sqlite3'

/** A row of `tool_records` (schema version 2). */
interface RecordRow {
  kind: StoredRecord['kind']
  agent: string
  key: string
  state: string
  version: number
  data: string
  created_at: number
  updated_at: number
  expires_at: number
  lease_owner: string | null
  lease_until: number | null
}

const COLUMNS =
  'kind, agent, key, state, version, data, created_at, updated_at, expires_at, lease_owner, lease_until'

function recordOf(row: RecordRow | undefined): StoredRecord | undefined {
  if (row === undefined) return undefined
  return Object.freeze({
    kind: row.kind,
    agent: row.agent,
    key: row.key,
    state: row.state,
    version: row.version,
    data: row.data,
    ...(row.lease_owner === null || row.lease_until === null
      ? {}
      : { lease: Object.freeze({ owner: row.lease_owner, until: row.lease_until }) }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  })
}

/** The prepared statements of one connection. */
export class RecordStatements {
  private readonly insert: Database.Statement
  private readonly select: Database.Statement
  private readonly compareAndSet: Database.Statement
  private readonly listAll: Database.Statement
  private readonly listByAgent: Database.Statement
  private readonly deleteExpired: Database.Statement

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO tool_records (${COLUMNS})
       VALUES (@kind, @agent, @key, @state, 1, @data, @createdAt, @createdAt, @expiresAt, @leaseOwner, @leaseUntil)
       ON CONFLICT (kind, agent, key) DO NOTHING
       RETURNING ${COLUMNS}`,
    )
    this.select = db.prepare(`SELECT ${COLUMNS} FROM tool_records WHERE kind = ? AND agent = ? AND key = ?`)
    // Omitted fields keep their column (NULL parameters); `setLease` distinguishes "keep the
    // lease" (0) from "set or clear it" (1, with NULL owner/until to clear).
    this.compareAndSet = db.prepare(
      `UPDATE tool_records SET
         state = @state,
         version = version + 1,
         data = coalesce(@data, data),
         expires_at = coalesce(@expiresAt, expires_at),
         lease_owner = iif(@setLease, @leaseOwner, lease_owner),
         lease_until = iif(@setLease, @leaseUntil, lease_until),
         updated_at = @updatedAt
       WHERE kind = @kind AND agent = @agent AND key = @key AND version = @expectedVersion
       RETURNING ${COLUMNS}`,
    )
    const filtered = (agentClause: string) =>
      db.prepare(
        `SELECT ${COLUMNS} FROM tool_records
         WHERE kind = @kind ${agentClause} AND (@state IS NULL OR state = @state)
         ORDER BY created_at, key LIMIT @limit`,
      )
    this.listAll = filtered('')
    this.listByAgent = filtered('AND agent = @agent')
    this.deleteExpired = db.prepare('DELETE FROM tool_records WHERE expires_at < ?')
  }

  create(record: NewStoredRecord): StoredRecord | undefined {
    return recordOf(
      this.insert.get({
        kind: record.kind,
        agent: record.agent,
        key: record.key,
        state: record.state,
        data: record.data,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
        leaseOwner: record.lease?.owner ?? null,
        leaseUntil: record.lease?.until ?? null,
      }) as RecordRow | undefined,
    )
  }

  get(ref: StoredRecordRef): StoredRecord | undefined {
    return recordOf(this.select.get(ref.kind, ref.agent, ref.key) as RecordRow | undefined)
  }

  update(
    ref: StoredRecordRef,
    expectedVersion: number,
    change: StoredRecordChange,
  ): StoredRecord | undefined {
    return recordOf(
      this.compareAndSet.get({
        kind: ref.kind,
        agent: ref.agent,
        key: ref.key,
        expectedVersion,
        state: change.state,
        data: change.data ?? null,
        expiresAt: change.expiresAt ?? null,
        setLease: change.lease === undefined ? 0 : 1,
        leaseOwner: change.lease?.owner ?? null,
        leaseUntil: change.lease?.until ?? null,
        updatedAt: change.updatedAt,
      }) as RecordRow | undefined,
    )
  }

  list(query: StoredRecordQuery): StoredRecord[] {
    const parameters = {
      kind: query.kind,
      state: query.state ?? null,
      // SQLite reads a negative LIMIT as "no limit".
      limit: query.limit ?? -1,
      ...(query.agent === undefined ? {} : { agent: query.agent }),
    }
    const statement = query.agent === undefined ? this.listAll : this.listByAgent
    return (statement.all(parameters) as RecordRow[]).map((row) => recordOf(row) as StoredRecord)
  }

  sweep(now: number): number {
    return this.deleteExpired.run(now).changes
  }
}
