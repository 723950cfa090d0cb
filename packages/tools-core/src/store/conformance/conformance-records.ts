/**
 * Record builders for the store conformance kit. Every case works on its own random agent and
 * keys, so cases can share one backing database (and run against data earlier runs left).
 */
import type { NewStoredRecord, StoredRecord, StoredRecordKind, StoredRecordRef } from '../tool-state-store'
import type { ExpectedRecord } from './conformance-assert'

/** One day in ms: the expiry of every record a case does not mean to be swept. */
export const DAY_MS = 86_400_000

/** A random token unique to one case run. */
export function uniqueToken(): string {
  return globalThis.crypto.randomUUID()
}

/** A per-case namespace: a fresh agent name and a key maker. */
export interface CaseScope {
  readonly agent: string
  readonly now: number
  key(name: string): string
  record(name: string, extra?: Partial<NewStoredRecord>): NewStoredRecord
}

/** Opens a namespace for one case; `label` goes into the names so leftovers are traceable. */
export function caseScope(label: string): CaseScope {
  const token = uniqueToken()
  const agent = `conformance-${label}-${token}`
  const now = Date.now()
  const key = (name: string) => `${name}-${token}`
  return {
    agent,
    now,
    key,
    record: (name, extra = {}) => ({
      kind: 'approval',
      agent,
      key: key(name),
      state: 'pending',
      data: '{"tool":"echo"}',
      createdAt: now,
      expiresAt: now + DAY_MS,
      ...extra,
    }),
  }
}

/** The address of a record. */
export function refOf(record: StoredRecordRef): StoredRecordRef {
  return { kind: record.kind, agent: record.agent, key: record.key }
}

/** The same address under another kind or agent. */
export function elsewhere(
  record: StoredRecordRef,
  change: { kind?: StoredRecordKind; agent?: string },
): StoredRecordRef {
  return { kind: change.kind ?? record.kind, agent: change.agent ?? record.agent, key: record.key }
}

/** What `create(record)` must return. */
export function createdFrom(record: NewStoredRecord): ExpectedRecord {
  return { ...record, version: 1, updatedAt: record.createdAt, lease: record.lease }
}

/** `record` as a plain expectation (to compare a later read with an earlier one). */
export function expectationOf(record: StoredRecord): ExpectedRecord {
  return { ...record, lease: record.lease }
}
