import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import type { MovedEntry } from '../protection/protection-check'

/** Main thread → planner worker. */
export type PlannerRequest =
  | {
      readonly type: 'prepare'
      readonly id: number
      readonly command: string
      readonly shell: string
      /** The call's filesystem and network policy, without the protected entries (added here). */
      readonly config: Partial<SandboxRuntimeConfig>
      /** The roots to scan for protected entries (the private tmp is not one: it is removed). */
      readonly roots: readonly string[]
      readonly maxScanEntries: number
      readonly commandId: string
    }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'finish'; readonly id: number }
  | SpawnRequest
  | { readonly type: 'ack'; readonly id: number; readonly bytes: number }
  | { readonly type: 'destroy-pipes'; readonly id: number }

/** Start a planned command in the worker (see `WorkerSpawner`). */
export interface SpawnRequest {
  readonly type: 'spawn'
  readonly id: number
  readonly file: string
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly cwd: string
}

/** What happens to a command the worker started, as the host's `ChildProcess` would emit it. */
export type ChildEvent = { readonly id: number } & (
  | { readonly event: 'spawn'; readonly pid: number }
  | { readonly event: 'error'; readonly message: string; readonly started: boolean }
  | { readonly event: 'data'; readonly stream: 'stdout' | 'stderr'; readonly chunk: Uint8Array }
  | { readonly event: 'exit' }
  | { readonly event: 'close'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
)

/** Why a request failed: `protection` — the protected entries could not be computed. */
export type PlannerFailure = 'protection' | 'aborted' | 'wrap'

/** Planner worker → main thread. */
export type PlannerReply =
  | { readonly id: number; readonly ok: true; readonly wrapped: string }
  | {
      readonly id: number
      readonly ok: true
      readonly moved: readonly MovedEntry[]
      /** Set when the writable roots could not be checked after the call. */
      readonly unverified?: string
    }
  | { readonly id: number; readonly ok: false; readonly failure: PlannerFailure; readonly message: string }

/** What the worker is started with. */
export interface PlannerWorkerData {
  /** `file:` URL of `@anthropic-ai/sandbox-runtime`'s entry, resolved by the host. */
  readonly libraryUrl: string
}

/** Most protected entries one call holds read-only; more make the call refuse. */
export const MAX_HELD_ENTRIES = 1024
