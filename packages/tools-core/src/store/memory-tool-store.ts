/**
 * The memory store: the {@link ToolStateStore} seam for one process (tests, development, a
 * single long-lived server that accepts losing pending approvals on restart). It keeps the same
 * contract as the durable stores, so code written against it behaves the same on SQLite or
 * PostgreSQL — only durability differs.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type {
  NewStoredRecord,
  StoredRecord,
  StoredRecordChange,
  StoredRecordQuery,
  StoredRecordRef,
  ToolStateStore,
} from './tool-state-store'

function addressOf(ref: StoredRecordRef): string {
  // JSON keeps the three parts apart whatever characters they hold.
  return JSON.stringify([ref.kind, ref.agent, ref.key])
}

function byAge(a: StoredRecord, b: StoredRecord): number {
  return a.createdAt - b.createdAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
}

/**
 * `ToolStateStore` service (ctx key `toolStore`) keeping records in this process's memory.
 * Plug it with `ctx.plugin(MemoryToolStore)`; nothing survives the process.
 */
export class MemoryToolStore extends Service implements ToolStateStore {
  /** Always `'memory'`. */
  readonly label = 'memory'
  // A plain (not #private) field: cordis hands out proxies of services.
  private readonly records = new Map<string, StoredRecord>()

  constructor(ctx: Context) {
    super(ctx, 'toolStore')
  }

  /** See {@link ToolStateStore.create}. */
  async create(record: NewStoredRecord): Promise<StoredRecord | undefined> {
    const address = addressOf(record)
    if (this.records.has(address)) return undefined
    const stored: StoredRecord = Object.freeze({
      kind: record.kind,
      agent: record.agent,
      key: record.key,
      state: record.state,
      version: 1,
      data: record.data,
      ...(record.lease === undefined ? {} : { lease: Object.freeze({ ...record.lease }) }),
      createdAt: record.createdAt,
      updatedAt: record.createdAt,
      expiresAt: record.expiresAt,
    })
    this.records.set(address, stored)
    return stored
  }

  /** See {@link ToolStateStore.get}. */
  async get(ref: StoredRecordRef): Promise<StoredRecord | undefined> {
    return this.records.get(addressOf(ref))
  }

  /** See {@link ToolStateStore.update}. */
  async update(
    ref: StoredRecordRef,
    expectedVersion: number,
    change: StoredRecordChange,
  ): Promise<StoredRecord | undefined> {
    const address = addressOf(ref)
    const current = this.records.get(address)
    if (current === undefined || current.version !== expectedVersion) return undefined
    const lease =
      change.lease === undefined ? current.lease : change.lease === null ? undefined : change.lease
    const next: StoredRecord = Object.freeze({
      kind: current.kind,
      agent: current.agent,
      key: current.key,
      state: change.state,
      version: current.version + 1,
      data: change.data ?? current.data,
      ...(lease === undefined ? {} : { lease: Object.freeze({ ...lease }) }),
      createdAt: current.createdAt,
      updatedAt: change.updatedAt,
      expiresAt: change.expiresAt ?? current.expiresAt,
    })
    this.records.set(address, next)
    return next
  }

  /** See {@link ToolStateStore.list}. */
  async list(query: StoredRecordQuery): Promise<StoredRecord[]> {
    const found: StoredRecord[] = []
    for (const record of this.records.values()) {
      if (record.kind !== query.kind) continue
      if (query.agent !== undefined && record.agent !== query.agent) continue
      if (query.state !== undefined && record.state !== query.state) continue
      found.push(record)
    }
    found.sort(byAge)
    return query.limit === undefined ? found : found.slice(0, Math.max(0, query.limit))
  }

  /** See {@link ToolStateStore.sweep}. */
  async sweep(now: number): Promise<number> {
    let swept = 0
    for (const [address, record] of this.records) {
      if (record.expiresAt < now) {
        this.records.delete(address)
        swept++
      }
    }
    return swept
  }
}
