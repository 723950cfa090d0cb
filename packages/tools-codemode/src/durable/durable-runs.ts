/**
 * What Code Mode's durable runs need from their surroundings (SPEC §13.3): the store, the lease
 * and retention times, and the replay plans the resumer hands to the `run_code` call it starts.
 */
import type { StoredRecord, StoredRecordRef, ToolStateStore } from '@dsh/tools-core'
import type { CodeLanguage } from '../code-runtime'
import type { RunRecordData } from './run-record'

/** A resumed run on its way through the pipeline: the record it replays and the claim it holds. */
export interface ReplayPlan {
  readonly data: RunRecordData
  readonly ref: StoredRecordRef
  /** The record as this process last wrote it (`running`, with its lease). */
  record: StoredRecord
  /** Set once the `run_code` body took the plan (the pipeline let the call run). */
  started: boolean
  /** Set when the run asked for approval again and wrote the record back to `suspended`. */
  resuspended: boolean
}

/** The durable side of Code Mode. */
export interface DurableRuns {
  /** The loaded tool state store, if any: without one no run is recorded. */
  store(): ToolStateStore | undefined
  readonly language: CodeLanguage
  /** How long (ms) a resuming process holds its claim before it counts as dead. */
  leaseMs(): number
  /** How long (ms) a run record is kept past its last approval's expiry, or after it is done. */
  retainMs(): number
  /** Plans by the `callId` of the `run_code` call that replays them. */
  readonly replays: Map<string, ReplayPlan>
}
