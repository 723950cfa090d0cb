/**
 * Checks of what callers hand the store, before any SQL runs: a caller bug is a `TypeError`
 * naming the field, never a half-written row or a `STORE_UNAVAILABLE` that blames the file.
 */
import type { NewStoredRecord, StoredRecordChange, StoredRecordQuery, StoredRecordRef } from '@dsh/tools-core'

const KINDS = new Set(['approval', 'outcome', 'run', 'result'])
// A lone surrogate cannot be encoded as UTF-8: SQLite would store U+FFFD, silently changing it.
const LONE_SURROGATE = /\p{Cs}/u

function text(value: unknown, field: string): void {
  if (typeof value !== 'string') throw new TypeError(`${field} must be a string, got ${typeof value}`)
  if (LONE_SURROGATE.test(value)) {
    throw new TypeError(
      `${field} holds a lone surrogate, which SQLite text cannot keep (escape it in JSON: "\\ud800")`,
    )
  }
}

function time(value: unknown, field: string): void {
  if (!Number.isSafeInteger(value))
    throw new TypeError(`${field} must be an integer epoch-ms time, got ${String(value)}`)
}

/** Checks a record address. */
export function checkRef(ref: StoredRecordRef): void {
  if (!KINDS.has(ref.kind))
    throw new TypeError(`kind must be one of ${[...KINDS].join(', ')}, got ${String(ref.kind)}`)
  text(ref.agent, 'agent')
  text(ref.key, 'key')
}

function checkLease(lease: unknown, field: string): void {
  if (typeof lease !== 'object' || lease === null) throw new TypeError(`${field} must be { owner, until }`)
  const { owner, until } = lease as { owner?: unknown; until?: unknown }
  text(owner, `${field}.owner`)
  time(until, `${field}.until`)
}

/** Checks a record to create. */
export function checkNewRecord(record: NewStoredRecord): void {
  checkRef(record)
  text(record.state, 'state')
  text(record.data, 'data')
  time(record.createdAt, 'createdAt')
  time(record.expiresAt, 'expiresAt')
  if (record.lease !== undefined) checkLease(record.lease, 'lease')
}

/** Checks a compare-and-set change and its expected version. */
export function checkChange(ref: StoredRecordRef, expectedVersion: number, change: StoredRecordChange): void {
  checkRef(ref)
  if (!Number.isSafeInteger(expectedVersion))
    throw new TypeError(`expectedVersion must be an integer, got ${expectedVersion}`)
  text(change.state, 'state')
  if (change.data !== undefined) text(change.data, 'data')
  if (change.expiresAt !== undefined) time(change.expiresAt, 'expiresAt')
  if (change.lease !== undefined && change.lease !== null) checkLease(change.lease, 'lease')
  time(change.updatedAt, 'updatedAt')
}

/** Checks a time given to `sweep`. */
export function checkTime(value: number, field: string): void {
  time(value, field)
}

/** Checks a listing query. */
export function checkQuery(query: StoredRecordQuery): void {
  checkRef({ kind: query.kind, agent: query.agent ?? '', key: '' })
  if (query.state !== undefined) text(query.state, 'state')
  const { limit } = query
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
    throw new TypeError(`limit must be a non-negative integer, got ${String(limit)}`)
  }
}
