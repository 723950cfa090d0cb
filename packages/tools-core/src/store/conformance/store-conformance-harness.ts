/**
 * What a store hands the conformance kit: a way to open handles on shared backing data, and the
 * optional hooks for durability, migration and an unreachable backing.
 */
import type { NewStoredRecord, ToolStateStore } from '../tool-state-store'

/** A store handle the kit opened; `close()` releases it (connections, file handles). */
export interface OpenedToolStateStore {
  readonly store: ToolStateStore
  close(): Promise<void>
}

/**
 * How {@link storeConformanceCases} reaches the store under test. Every case opens its own
 * handles and closes them, and works on its own random agent and keys, so all cases may share
 * one backing database.
 */
export interface StoreConformanceHarness {
  /**
   * Open a store on the shared backing data. A second `open()` gives a second, independent
   * handle/connection to the SAME data, as another process would.
   */
  open(): Promise<OpenedToolStateStore>
  /** True when data survives `close()` and a later `open()` (SQLite, PostgreSQL; not memory). */
  readonly durable: boolean
  /**
   * Optional: write the backing data in the store's previous schema version holding `records`,
   * so that the next `open()` must migrate it (records readable and updatable after).
   */
  seedLegacy?(records: readonly NewStoredRecord[]): Promise<void>
  /**
   * Optional: a store whose backing cannot be reached; every method must reject with
   * `StoreUnavailableError` (code `STORE_UNAVAILABLE`) whose message contains `store.label`.
   */
  openUnreachable?(): Promise<OpenedToolStateStore>
}

/** One conformance check: `run()` resolves when the store keeps the rule, and throws an `Error` saying how it broke it otherwise. */
export interface StoreConformanceCase {
  /** The rule checked, usable as a test name. */
  readonly name: string
  run(): Promise<void>
}

/** Opens a handle, runs `body` with its store, and closes the handle whatever happens. */
export async function withStore<T>(
  harness: StoreConformanceHarness,
  body: (store: ToolStateStore) => Promise<T>,
): Promise<T> {
  const opened = await harness.open()
  try {
    return await body(opened.store)
  } finally {
    await opened.close()
  }
}
