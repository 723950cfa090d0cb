/**
 * The journal of one `run_code` run while a store is loaded (SPEC §13.3): it records every
 * sub-call the bridge starts (tool, arguments, the outcome the program saw) and every
 * nondeterministic read the runtime reports, and — on a resumed run — answers the calls the
 * previous run's ledger holds, after checking tool and argument hash.
 *
 * Recording a call costs one small object holding references to the arguments and the value the
 * pipeline already froze; hashing waits until a run actually suspends, so a run that never asks
 * for approval pays almost nothing for being resumable.
 */
import {
  argumentsHash,
  type JsonValue,
  type ToolExecutionResult,
  type ToolNestedApproval,
} from '@dsh/tools-core'
import type { LedgerEntry, LedgerOutcome, RunRecordData } from './run-record'

/** How a resumed run answers a call from its ledger. */
export type ReplayAnswer =
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'error'; readonly message: string }
  /** Resume the call's approval ticket: it runs for real, exactly once. */
  | { readonly kind: 'resume'; readonly ticket: string }
  /** The program did not make the call the ledger holds: the run fails. */
  | { readonly kind: 'diverged'; readonly message: string }

/** Why the run stopped early: it asked for approval, or it diverged from its ledger. */
export type JournalStop =
  | { readonly kind: 'suspend' }
  | { readonly kind: 'diverged'; readonly message: string }

interface LiveCall {
  readonly tool: string
  readonly args: JsonValue
  /** Known already for a call answered by resuming its approval. */
  readonly hash?: string
  outcome?: LedgerOutcome
}

function outcomeOf(result: ToolExecutionResult): LedgerOutcome {
  if (!result.isError) return { value: result.value as JsonValue }
  if (result.error.info?.code === 'APPROVAL_PENDING' && result.pending !== undefined)
    return { approval: result.pending.ticket }
  return { error: result.error.message }
}

/** One run's journal (see the module comment). */
export class RunJournal {
  /** The reads the previous run made, in order: the runtime answers the program's first reads from them. */
  readonly replayReads: readonly JsonValue[]
  /** Lines the previous runs printed (already shown). */
  readonly shownLogLines: number
  /** Approvals asked in this run, in the order their calls ended `APPROVAL_PENDING`. */
  readonly asked: ToolNestedApproval[] = []
  #stop: JournalStop | undefined
  #frozen = false
  readonly #prior = new Map<number, LedgerEntry>()
  readonly #live = new Map<number, LiveCall>()
  readonly #liveReads: JsonValue[] = []

  constructor(previous?: RunRecordData) {
    this.replayReads = previous?.reads ?? []
    this.shownLogLines = previous?.logLines ?? 0
    for (const entry of previous?.ledger ?? []) this.#prior.set(entry.n, entry)
  }

  /** Why the run stopped early, if it did. */
  get stop(): JournalStop | undefined {
    return this.#stop
  }

  /**
   * The ledger's answer for call `n`, or `undefined` when the ledger has none (the call runs
   * live). A call whose tool or argument hash differs from the ledger's stops the run as diverged.
   */
  replay(n: number, tool: string, args: JsonValue): ReplayAnswer | undefined {
    const entry = this.#prior.get(n)
    if (entry === undefined) return undefined
    const diverged = (why: string): ReplayAnswer => {
      const message = `the program diverged on replay at sub-call ${n}: ${why}`
      this.#stop ??= { kind: 'diverged', message }
      return { kind: 'diverged', message }
    }
    if (entry.tool !== tool)
      return diverged(`it called \`${tool}\` where the suspended run had called \`${entry.tool}\``)
    const hash = argumentsHash(args)
    if (hash !== entry.hash)
      return diverged(`it called \`${tool}\` with other arguments than the suspended run`)
    const outcome = entry.outcome
    if ('value' in outcome) return { kind: 'value', value: outcome.value }
    if ('error' in outcome) return { kind: 'error', message: outcome.error }
    if ('approval' in outcome) {
      // Its result (from the exactly-once resume) replaces the approval in the next ledger.
      this.#live.set(n, { tool, args, hash })
      return { kind: 'resume', ticket: outcome.approval }
    }
    return {
      kind: 'error',
      message: `the outcome of this call is unknown: it was running when the run suspended and did not finish in time, so it is not run again (OUTCOME_UNKNOWN)`,
    }
  }

  /** A live call started. */
  started(n: number, tool: string, args: JsonValue): void {
    if (!this.#frozen) this.#live.set(n, { tool, args })
  }

  /** A call settled with `result`; `true` when it asked for approval (the run must suspend). */
  settled(n: number, result: ToolExecutionResult): boolean {
    if (this.#frozen) return false
    const call = this.#live.get(n)
    if (call === undefined) return false
    call.outcome = outcomeOf(result)
    if (!('approval' in call.outcome) || result.isError === false) return false
    const pending = result.pending!
    this.asked.push({
      ticket: pending.ticket,
      tool: pending.tool,
      ...(pending.reason === undefined ? {} : { reason: pending.reason }),
      expiresAt: pending.expiresAt,
    })
    this.#stop ??= { kind: 'suspend' }
    return true
  }

  /** Reads the runtime reports past the replayed ones, in order. */
  recordReads(values: readonly JsonValue[]): void {
    if (!this.#frozen) for (const value of values) this.#liveReads.push(value)
  }

  /** Stop recording: whatever settles later is not part of the ledger (its outcome stays unknown). */
  freeze(): void {
    this.#frozen = true
  }

  /** Every read in order: the replayed ones, then this run's. */
  reads(): JsonValue[] {
    return [...this.replayReads, ...this.#liveReads]
  }

  /** The ledger in issue order: the previous entries, overlaid by this run's calls. */
  ledger(): LedgerEntry[] {
    const merged = new Map(this.#prior)
    for (const [n, call] of this.#live) {
      merged.set(n, {
        n,
        tool: call.tool,
        hash: call.hash ?? argumentsHash(call.args),
        outcome: call.outcome ?? { unknown: true },
      })
    }
    return [...merged.values()].sort((a, b) => a.n - b.n)
  }
}
