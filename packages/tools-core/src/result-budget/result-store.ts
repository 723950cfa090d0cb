import type { ScopeKey } from '../types'
import { utf8Length } from './utf8'

interface Entry {
  readonly agent: ScopeKey | undefined
  readonly text: string
  readonly bytes: number
}

/** What a lookup found: the text, or why there is none. */
export type StoreLookup =
  | { readonly found: true; readonly text: string }
  | { readonly found: false; readonly reason: 'not-found' | 'expired' }

/** How many evicted handles are remembered, to tell "expired" from "never existed". */
const TOMBSTONES = 4096

/** A new unguessable handle (128 random bits). */
export function mintHandle(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return `res_${Buffer.from(bytes).toString('base64url')}`
}

/**
 * The full texts behind cut results, keyed by unguessable handles (128 random bits) and
 * bounded by UTF-8 bytes with least-recently-used eviction. A handle belongs to the agent
 * whose call produced it: another agent (or the global layer) gets "not found", exactly as
 * for a handle that never existed.
 */
export class ResultStore {
  private readonly entries = new Map<string, Entry>()
  private readonly evicted = new Map<string, ScopeKey | undefined>()
  private used = 0

  constructor(readonly capacity: number) {}

  /** Bytes currently held. */
  get size(): number {
    return this.used
  }

  /** Keep `text` for `agent`; the handle, or `undefined` when it alone exceeds the capacity. */
  put(text: string, agent: ScopeKey | undefined, bytes = utf8Length(text)): string | undefined {
    if (bytes > this.capacity) return undefined
    while (this.used + bytes > this.capacity) {
      const oldest = this.entries.keys().next().value as string
      this.drop(oldest)
    }
    const handle = mintHandle()
    this.entries.set(handle, { agent, text, bytes })
    this.used += bytes
    return handle
  }

  private drop(handle: string): void {
    const entry = this.entries.get(handle)!
    this.entries.delete(handle)
    this.used -= entry.bytes
    this.evicted.set(handle, entry.agent)
    if (this.evicted.size > TOMBSTONES) this.evicted.delete(this.evicted.keys().next().value as string)
  }

  /** Look `handle` up for `agent`, marking it recently used. */
  get(handle: string, agent: ScopeKey | undefined): StoreLookup {
    const entry = this.entries.get(handle)
    if (entry !== undefined && entry.agent === agent) {
      this.entries.delete(handle)
      this.entries.set(handle, entry)
      return { found: true, text: entry.text }
    }
    if (entry === undefined && this.evicted.has(handle) && this.evicted.get(handle) === agent) {
      return { found: false, reason: 'expired' }
    }
    return { found: false, reason: 'not-found' }
  }
}
