/**
 * Input checks run before a statement is sent. PostgreSQL `text` cannot hold U+0000, and the
 * driver would encode a lone surrogate as U+FFFD — a silent change of what was given; times are
 * `bigint` columns. A write holding such input is refused with a `TypeError` naming the field,
 * and nothing is written (a store-unavailable error would blame the server for a caller's bug).
 * A read at an address no record can have finds nothing, as in any other store.
 */
import type { NewStoredRecord, StoredRecordChange, StoredRecordRef } from '@dsh/tools-core'

// With the u flag a surrogate pair is one code point, so this matches lone surrogates only.
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u

/** Whether PostgreSQL `text` keeps `value` exactly. */
export function storableText(value: string): boolean {
  return !UNSTORABLE.test(value)
}

/** Whether a record can live at `ref`. */
export function storableRef(ref: StoredRecordRef): boolean {
  return storableText(ref.kind) && storableText(ref.agent) && storableText(ref.key)
}

function text(field: string, value: string): void {
  if (!storableText(value))
    throw new TypeError(
      `${field} holds U+0000 or a lone surrogate, which PostgreSQL text cannot store (escape it in the JSON)`,
    )
}

function integer(field: string, value: number): void {
  if (!Number.isSafeInteger(value))
    throw new TypeError(`${field} must be a safe integer, got ${String(value)}`)
}

/** Refuse a new record the store cannot keep exactly. */
export function checkNewRecord(record: NewStoredRecord): void {
  text('kind', record.kind)
  text('agent', record.agent)
  text('key', record.key)
  text('state', record.state)
  text('data', record.data)
  integer('createdAt', record.createdAt)
  integer('expiresAt', record.expiresAt)
  if (record.lease !== undefined) {
    text('lease.owner', record.lease.owner)
    integer('lease.until', record.lease.until)
  }
}

/** Refuse a change the store cannot keep exactly. */
export function checkChange(expectedVersion: number, change: StoredRecordChange): void {
  integer('expectedVersion', expectedVersion)
  text('state', change.state)
  if (change.data !== undefined) text('data', change.data)
  if (change.lease) {
    text('lease.owner', change.lease.owner)
    integer('lease.until', change.lease.until)
  }
  if (change.expiresAt !== undefined) integer('expiresAt', change.expiresAt)
  integer('updatedAt', change.updatedAt)
}
