/**
 * The SQL of each store operation, and rows turned back into records. Every state change is one
 * statement whose WHERE clause carries the expected version: PostgreSQL lets exactly one of two
 * racing writers match it, whichever process or host they run on.
 */
import type {
  NewStoredRecord,
  StoredRecord,
  StoredRecordChange,
  StoredRecordQuery,
  StoredRecordRef,
} from '@dsh/tools-core'
import type { StoreTables } from './store-schema'

/** A statement and its parameters. */
export interface Statement {
  readonly text: string
  readonly values: unknown[]
}

/** A row as `pg` returns it: `bigint` columns arrive as decimal strings. */
export interface RecordRow {
  kind: StoredRecord['kind']
  agent: string
  key: string
  state: string
  version: number
  data: string
  lease_owner: string | null
  lease_until: string | null
  created_at: string
  updated_at: string
  expires_at: string
}

const COLUMNS =
  'kind, agent, key, state, version, data, lease_owner, lease_until, created_at, updated_at, expires_at'

/** The record a row holds; times are epoch ms (they fit a double: the writer's clock wrote them). */
export function recordFromRow(row: RecordRow): StoredRecord {
  return Object.freeze({
    kind: row.kind,
    agent: row.agent,
    key: row.key,
    state: row.state,
    version: row.version,
    data: row.data,
    ...(row.lease_owner === null || row.lease_until === null
      ? {}
      : { lease: Object.freeze({ owner: row.lease_owner, until: Number(row.lease_until) }) }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
  })
}

/** `INSERT … ON CONFLICT DO NOTHING RETURNING …`: no row back when the address is taken. */
export function createStatement(t: StoreTables, record: NewStoredRecord): Statement {
  return {
    text: `INSERT INTO ${t.records} (${COLUMNS})
      VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $8, $9)
      ON CONFLICT (kind, agent, key) DO NOTHING RETURNING ${COLUMNS}`,
    values: [
      record.kind,
      record.agent,
      record.key,
      record.state,
      record.data,
      record.lease?.owner ?? null,
      record.lease?.until ?? null,
      record.createdAt,
      record.expiresAt,
    ],
  }
}

/** The record at one address. */
export function getStatement(t: StoreTables, ref: StoredRecordRef): Statement {
  return {
    text: `SELECT ${COLUMNS} FROM ${t.records} WHERE kind = $1 AND agent = $2 AND key = $3`,
    values: [ref.kind, ref.agent, ref.key],
  }
}

/** Compare-and-set in one statement: no row back when the version moved or the record is gone. */
export function updateStatement(
  t: StoreTables,
  ref: StoredRecordRef,
  expectedVersion: number,
  change: StoredRecordChange,
): Statement {
  const setLease = change.lease !== undefined
  return {
    text: `UPDATE ${t.records} SET
        state = $5::text,
        version = version + 1,
        data = COALESCE($6::text, data),
        lease_owner = CASE WHEN $7::boolean THEN $8::text ELSE lease_owner END,
        lease_until = CASE WHEN $7::boolean THEN $9::bigint ELSE lease_until END,
        expires_at = COALESCE($10::bigint, expires_at),
        updated_at = $11::bigint
      WHERE kind = $1 AND agent = $2 AND key = $3 AND version = $4
      RETURNING ${COLUMNS}`,
    values: [
      ref.kind,
      ref.agent,
      ref.key,
      expectedVersion,
      change.state,
      change.data ?? null,
      setLease,
      change.lease?.owner ?? null,
      change.lease?.until ?? null,
      change.expiresAt ?? null,
      change.updatedAt,
    ],
  }
}

/** One kind's records, optionally one agent's and one state's, oldest first. */
export function listStatement(t: StoreTables, query: StoredRecordQuery): Statement {
  return {
    text: `SELECT ${COLUMNS} FROM ${t.records}
      WHERE kind = $1 AND ($2::text IS NULL OR agent = $2) AND ($3::text IS NULL OR state = $3)
      ORDER BY created_at, key LIMIT $4`,
    values: [
      query.kind,
      query.agent ?? null,
      query.state ?? null,
      // As Array.prototype.slice would: a fractional limit is truncated, a negative one is 0.
      query.limit === undefined ? null : Math.max(0, Math.trunc(query.limit)),
    ],
  }
}

const BIGINT_MAX = 9_223_372_036_854_775_807n

/** Delete what expired before `now`. */
export function sweepStatement(t: StoreTables, now: number): Statement {
  // expires_at < 1.5 is expires_at < 2 for an integer column; beyond the bigint range, clamp.
  const wanted = Number.isFinite(now) ? BigInt(Math.ceil(now)) : now > 0 ? BIGINT_MAX : -BIGINT_MAX - 1n
  const bound = wanted > BIGINT_MAX ? BIGINT_MAX : wanted < -BIGINT_MAX - 1n ? -BIGINT_MAX - 1n : wanted
  return { text: `DELETE FROM ${t.records} WHERE expires_at < $1`, values: [bound.toString()] }
}
