/**
 * Result-budget texts in the durable store (SPEC §13.4): the full text behind a `read_result`
 * handle as a record of kind `result`, so the handle survives a restart and reads from any
 * process sharing the store until `resultBudget.ttlMs`. Every store call of the result budget
 * lives here.
 */
import { isToolsError } from '@dsh/tools-schema'
import { StoreUnavailableError, ToolErrorCode } from '../errors'
import type { StoredRecordRef, ToolStateStore } from '../store/tool-state-store'
import type { ScopeKey } from '../types'
import type { StoreLookup } from './result-store'

/** The state of every result record: written once, never changed. */
const KEPT = 'kept'

/** The longest store error message quoted in a marker or an error (a marker must stay small). */
const MAX_REASON_CHARS = 200

function refOf(handle: string, agent: ScopeKey | undefined): StoredRecordRef {
  return { kind: 'result', agent: agent ?? '', key: handle }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.length > MAX_REASON_CHARS ? `${message.slice(0, MAX_REASON_CHARS)}…` : message
}

/**
 * What a failed store call becomes: the store's own `StoreUnavailableError` as is, anything
 * else (a store that breaks the seam's contract) wrapped into one that names the store.
 */
function storeFailure(store: ToolStateStore, error: unknown): StoreUnavailableError {
  if (isToolsError(error) && error.code === ToolErrorCode.STORE_UNAVAILABLE) {
    return error as StoreUnavailableError
  }
  return new StoreUnavailableError(`tool state store "${labelOf(store)}" failed: ${reasonOf(error)}`, {
    cause: error,
  })
}

/** The store's label, defensively: a broken store must not break the message about it. */
function labelOf(store: ToolStateStore): string {
  try {
    return String(store.label)
  } catch {
    return 'unlabelled store'
  }
}

/** The marker note when the store could not keep a text (the result itself is still returned). */
function notKeptReason(store: ToolStateStore, error: unknown): string {
  return `the tool state store "${labelOf(store)}" could not keep it (${reasonOf(error)})`
}

/** Keep `text` under `handle` for `agent` until `now + ttlMs`; rejects with a `StoreUnavailableError`. */
async function keepResult(
  store: ToolStateStore,
  handle: string,
  agent: ScopeKey | undefined,
  text: string,
  ttlMs: number,
): Promise<void> {
  const now = Date.now()
  let created: unknown
  try {
    created = await store.create({
      ...refOf(handle, agent),
      state: KEPT,
      data: JSON.stringify(text),
      createdAt: now,
      expiresAt: now + ttlMs,
    })
  } catch (error) {
    throw storeFailure(store, error)
  }
  // 128 random bits do not collide; a store that says they did is not keeping the text.
  if (created === undefined) throw storeFailure(store, new Error(`a record already exists at ${handle}`))
}

/**
 * {@link keepResult} for one call: resolves `undefined` once the text is kept, else with why it
 * was not (for the markers) — the store failed, or the caller aborted while the store had not
 * answered (a store that hangs must not hold an aborted call). Never rejects. An abandoned write
 * may still land later; its record is never named to anyone and expires with the ttl.
 */
export function keepForCall(
  store: ToolStateStore,
  handle: string,
  agent: ScopeKey | undefined,
  text: string,
  ttlMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const aborted = () => `the call was aborted before the tool state store "${labelOf(store)}" kept it`
  if (signal.aborted) return Promise.resolve(aborted())
  return new Promise((resolve) => {
    const abandon = () => resolve(aborted())
    signal.addEventListener('abort', abandon, { once: true })
    keepResult(store, handle, agent, text, ttlMs)
      .then(
        () => resolve(undefined),
        (error: unknown) => resolve(notKeptReason(store, error)),
      )
      .finally(() => signal.removeEventListener('abort', abandon))
  })
}

/**
 * The text behind `handle` for `agent`. Another agent's record is at another address, so it
 * reads as "not found", exactly like a handle that never existed; a record past its expiry
 * reads as "expired" (once the store sweeps it, as "not found"). Rejects with a
 * `StoreUnavailableError` naming the store.
 */
export async function readResult(
  store: ToolStateStore,
  handle: string,
  agent: ScopeKey | undefined,
): Promise<StoreLookup> {
  let record: Awaited<ReturnType<ToolStateStore['get']>>
  try {
    record = await store.get(refOf(handle, agent))
  } catch (error) {
    throw storeFailure(store, error)
  }
  if (record === undefined) return { found: false, reason: 'not-found' }
  if (record.expiresAt <= Date.now()) return { found: false, reason: 'expired' }
  let text: unknown
  try {
    text = JSON.parse(record.data)
  } catch (error) {
    throw storeFailure(store, new Error(`result record ${handle} holds invalid JSON`, { cause: error }))
  }
  if (typeof text !== 'string') {
    throw storeFailure(store, new Error(`result record ${handle} does not hold a text`))
  }
  return { found: true, text }
}
