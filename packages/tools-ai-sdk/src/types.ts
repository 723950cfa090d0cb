import type { AdditionalContext, ContentPart, JsonValue, ScopeKey, ToolProgressUpdate } from '@dsh/tools-core'

/** Options of `aiSdkTools`, `aiSdkToolApproval` and `registerAiSdkTools`. */
export interface AiSdkOptions {
  /**
   * The agent whose view of the registry is used (its visible tools, mode, policy listeners).
   * Default: the scope of `ctx` (`scopeOf(ctx)`), or none (global) for a plain context.
   */
  readonly agent?: ScopeKey
}

/**
 * A preliminary output: one `exec.progress(...)` report of the running body, streamed by the
 * AI SDK as a preliminary tool result (`preliminary: true`) before the final output.
 */
export interface AiSdkToolProgress {
  readonly status: 'progress'
  readonly progress: ToolProgressUpdate
}

/**
 * The final output of a successful call: the canonical value and the model-facing content
 * parts exactly as the pipeline published them (`toModelOutput` sends the content).
 */
export interface AiSdkToolDone {
  readonly status: 'done'
  readonly value: JsonValue
  readonly content: readonly ContentPart[]
  /** Context messages the pipeline deferred to the loop (SPEC §4.2), when there are any. */
  readonly additionalContexts?: readonly AdditionalContext[]
}

/** What a tool of `aiSdkTools` yields: progress reports, then exactly one final output. */
export type AiSdkToolOutput = AiSdkToolProgress | AiSdkToolDone
