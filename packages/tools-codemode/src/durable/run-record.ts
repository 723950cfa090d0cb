/**
 * The run record a suspended Code Mode run leaves in the store (SPEC §13.3, record kind `run`):
 * the program and its language, the fingerprints of the tools it could call, the ledger of its
 * sub-calls in issue order and its nondeterministic reads in order. Its state walks
 * `suspended → running` (a resume's lease) `→ suspended` (it asked again) or `→ done`.
 */
import type { JsonValue, ToolNestedApproval } from '@dsh/tools-core'
import type { CodeLanguage } from '../code-runtime'

/** The states of a run record, in the store's `state` column. */
export const RunState = Object.freeze({
  SUSPENDED: 'suspended',
  RUNNING: 'running',
  DONE: 'done',
} as const)

/** What the program saw of one sub-call. */
export type LedgerOutcome =
  /** The call resolved with `value`. */
  | { readonly value: JsonValue }
  /** The call rejected (a `ToolCallError` with `message`). */
  | { readonly error: string }
  /** The call waits for approval `approval` (a ticket); resuming it runs the call exactly once. */
  | { readonly approval: string }
  /** The call had started when the run suspended and did not settle within `subCallDrainMs`. */
  | { readonly unknown: true }

/** One sub-call of the ledger. */
export interface LedgerEntry {
  /** Its number in issue order (1-based), as the bridge numbers calls. */
  readonly n: number
  readonly tool: string
  /** SHA-256 of its canonical arguments. */
  readonly hash: string
  readonly outcome: LedgerOutcome
}

/** The JSON `data` of a run record. */
export interface RunRecordData {
  /** Record layout version (1). */
  readonly v: 1
  readonly ticket: string
  /** The agent scope key, `''` outside any agent scope. */
  readonly agent: string
  /** The `run_code` call that started the run. */
  readonly callId: string
  readonly language: CodeLanguage
  readonly code: string
  /** SHA-256 of `code`: a record whose program was changed is refused. */
  readonly codeHash: string
  readonly description: string
  /** Definition fingerprint of every tool the program could call, by name. */
  readonly fingerprints: Readonly<Record<string, string>>
  /** Sub-calls by issue order; a call that never started has no entry. */
  readonly ledger: readonly LedgerEntry[]
  /** Every nondeterministic read in order, as the runtime reported them. */
  readonly reads: readonly JsonValue[]
  /** Lines the program printed up to the suspension (already shown; not repeated on resume). */
  readonly logLines: number
  /** The approvals asked inside the program that the run waits for. */
  readonly approvals: readonly ToolNestedApproval[]
  /** The final result (a stored `ToolExecutionResult`), once `done`. */
  readonly result?: JsonValue
}

/** A run record's data, or `undefined` when the text is not one. */
export function parseRunRecord(text: string): RunRecordData | undefined {
  try {
    const data = JSON.parse(text) as Partial<RunRecordData> | null
    if (typeof data !== 'object' || data === null || data.v !== 1) return undefined
    if (typeof data.ticket !== 'string' || typeof data.agent !== 'string') return undefined
    if (typeof data.code !== 'string' || typeof data.codeHash !== 'string') return undefined
    if (typeof data.callId !== 'string' || typeof data.description !== 'string') return undefined
    if (!Array.isArray(data.ledger) || !Array.isArray(data.reads) || !Array.isArray(data.approvals))
      return undefined
    if (typeof data.fingerprints !== 'object' || data.fingerprints === null) return undefined
    if (typeof data.logLines !== 'number') return undefined
    return data as RunRecordData
  } catch {
    return undefined
  }
}
