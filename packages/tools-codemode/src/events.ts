/**
 * The observe-only events of the dispatch bridge, declared on cordis' event map. Both are
 * emitted only while someone listens; a sub-call abandoned by run settlement emits neither.
 */
import type { JsonValue, ToolContent, ToolExecutionToken } from '@dsh/tools-core'

/** A binding call entered the tool pipeline. */
export interface CodeDispatchStart {
  /** Deterministic id `<parentCallId>:code:<n>`, numbered by submission from 1; also the sub-call's `callId`. */
  readonly id: string
  /** The `callId` of the outer `run_code` execution. */
  readonly parent: string
  /** The outer execution's token (the sub-call's `parent`), for commit-aware observers. */
  readonly parentToken: ToolExecutionToken
  /** The binding (tool) name. */
  readonly name: string
  /** The lossless, frozen arguments the program passed. */
  readonly arguments: JsonValue
  /** Epoch milliseconds at pipeline entry. */
  readonly time: number
}

/** A binding call settled: the complete model-facing content of its final result, with timing. */
export interface CodeDispatchResult {
  /** Same id as the matching `tool/code-dispatch-start`. */
  readonly id: string
  /** The `callId` of the outer `run_code` execution. */
  readonly parent: string
  /** The outer execution's token. */
  readonly parentToken: ToolExecutionToken
  /** The binding (tool) name. */
  readonly name: string
  /** The final content, exactly what a native call would have shown the model. */
  readonly content: ToolContent
  /** Whether the sub-call failed (the program saw a `ToolCallError`). */
  readonly isError: boolean
  /** Epoch milliseconds at pipeline entry. */
  readonly startTime: number
  /** Epoch milliseconds at settlement. */
  readonly endTime: number
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** A `run_code` binding call entered the pipeline (observe-only). */
    'tool/code-dispatch-start'(event: CodeDispatchStart): void
    /** A `run_code` binding call settled (observe-only). */
    'tool/code-dispatch'(event: CodeDispatchResult): void
  }
}
