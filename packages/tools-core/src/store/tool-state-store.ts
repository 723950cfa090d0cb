/**
 * The store seam (SPEC §13.1): what a turn needs to continue after its process is gone —
 * approvals and the outcomes of approved calls, Code Mode run ledgers, result-budget texts —
 * lives in a `ToolStateStore`, a cordis service at `ctx.toolStore`.
 *
 * The seam is deliberately small and generic: records addressed by kind, agent and key, holding
 * a state name and an opaque JSON text, changed only by compare-and-set on a version number.
 * What the states mean (`pending → approved|denied → running → done` for an approval) is the
 * business of the code that writes them; a store only guarantees that of two writers racing on
 * one version exactly one wins, in one conditional statement — which is what makes a claim
 * exactly-once across processes and hosts.
 */
// Load cordis before augmenting it: when this module was the first of a program to name
// '@deepseek-ai/cordis', the augmentation below shadowed cordis' own `Context` (a TypeScript
// ordering quirk that broke the declaration build).
import type {} from '@deepseek-ai/cordis'

/**
 * The four kinds of record a store holds: `approval` (a ticket: the asked call, its decision
 * and, once resumed, its lease and final result), `outcome` (the final result of a durable call
 * that needed no approval), `run` (a Code Mode run and its replay ledger) and `result` (a
 * result-budget text behind a `read_result` handle).
 */
export type StoredRecordKind = 'approval' | 'outcome' | 'run' | 'result'

/**
 * Where a record lives. `agent` is the agent scope key, or `''` for calls made outside any
 * agent scope: records of one agent are never read or changed through another's address.
 */
export interface StoredRecordRef {
  readonly kind: StoredRecordKind
  readonly agent: string
  readonly key: string
}

/** A claim on a record: who holds it and until when (epoch ms); past `until` it counts as dead. */
export interface StoredLease {
  readonly owner: string
  readonly until: number
}

/** A record as the store returns it. Times are epoch milliseconds from the writer's clock. */
export interface StoredRecord extends StoredRecordRef {
  /** The state name, e.g. `pending`, `approved`, `running`, `done`. */
  readonly state: string
  /** 1 on creation, +1 on every successful {@link ToolStateStore.update}. */
  readonly version: number
  /**
   * JSON text, stored and returned byte for byte (never parsed and re-serialized by the store,
   * so numbers beyond double precision, `-0` and lone surrogates escaped in the text survive).
   */
  readonly data: string
  /** The current claim, if any. */
  readonly lease?: StoredLease
  readonly createdAt: number
  readonly updatedAt: number
  /** When the record may be swept; {@link ToolStateStore.get} still returns it until then and after, until swept. */
  readonly expiresAt: number
}

/** A new record: everything but the version, which starts at 1, and `updatedAt`, which equals `createdAt`. */
export interface NewStoredRecord extends StoredRecordRef {
  readonly state: string
  readonly data: string
  readonly lease?: StoredLease
  readonly createdAt: number
  readonly expiresAt: number
}

/**
 * A compare-and-set change. Omitted fields keep their value; `lease: null` clears the lease.
 */
export interface StoredRecordChange {
  readonly state: string
  readonly data?: string
  readonly lease?: StoredLease | null
  readonly expiresAt?: number
  /** The writer's clock, recorded as `updatedAt`. */
  readonly updatedAt: number
}

/** A listing: one kind, optionally one agent and one state, oldest first. */
export interface StoredRecordQuery {
  readonly kind: StoredRecordKind
  /** Only this agent's records (`''` for calls outside any agent scope); omitted: every agent's. */
  readonly agent?: string
  readonly state?: string
  /** At most this many records (default: all). */
  readonly limit?: number
}

/**
 * The durable state seam. Every method either completes or rejects with a
 * `StoreUnavailableError` (code `STORE_UNAVAILABLE`) whose message names the store
 * ({@link ToolStateStore.label}); callers fail closed on it — no body runs.
 */
export interface ToolStateStore {
  /** Names the store in messages and traces, e.g. `sqlite /var/lib/app/tools.db`. Never holds credentials. */
  readonly label: string
  /** Insert a record; the stored record, or `undefined` when one already exists at its address. */
  create(record: NewStoredRecord): Promise<StoredRecord | undefined>
  /** The record at `ref`, or `undefined` when there is none (or it was swept). */
  get(ref: StoredRecordRef): Promise<StoredRecord | undefined>
  /**
   * Compare-and-set: apply `change` only when the record at `ref` still has `expectedVersion`.
   * The updated record (version + 1), or `undefined` when the record is gone or another writer
   * changed it first. Atomic across every process sharing the store.
   */
  update(
    ref: StoredRecordRef,
    expectedVersion: number,
    change: StoredRecordChange,
  ): Promise<StoredRecord | undefined>
  /** Records matching `query`, ordered by `createdAt` then key. */
  list(query: StoredRecordQuery): Promise<StoredRecord[]>
  /** Delete every record whose `expiresAt` is before `now`; how many were deleted. */
  sweep(now: number): Promise<number>
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** The durable tool state store (SPEC §13.1), when a store plugin is loaded. */
    toolStore: ToolStateStore
  }
}
