import type { ToolAbortedError } from '../errors'
import type { CompiledTool } from '../internal/compiled-tool'
import type { HookTable } from '../internal/listeners'
import type { CallLifetimes } from '../lifetime/call-lifetimes'
import type { ToolRegistry } from '../registry'
import type { ResultBudget } from '../result-budget/result-budget'
import type {
  AdditionalContext,
  ApprovalService,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
} from '../types'
import type { ValueLimits } from './value-limits'

/** What the pipeline stages need from the service, captured once at construction. */
export interface PipelineRuntime {
  readonly registry: ToolRegistry
  /** The cordis hook table; listeners are read from it per call, never through a context proxy. */
  readonly hooks: HookTable
  /** The approval seam (`ctx.get('approval')`), looked up only when a gate asks. */
  approval(): ApprovalService | undefined
  /** The result budget, when the runtime was configured with `resultBudget`. */
  readonly budget?: ResultBudget | undefined
  /** Bounds of model arguments and tool results, checked while they are snapshotted. */
  readonly valueLimits: ValueLimits
  /** What ends in-flight calls (disposal); absent in bare test runtimes. */
  readonly lifetimes?: CallLifetimes | undefined
  /** Report an error that cannot change a result any more (a throwing `tools/result` listener). */
  report(message: string, error: unknown): void
}

/** The mutable state of one call as it moves through the stages. */
export interface ToolCall {
  readonly runtime: PipelineRuntime
  readonly execution: ToolExecution
  /** The caller's original signal, re-fused into whatever signal a wrapper installs. */
  readonly callerSignal: AbortSignal
  readonly tool: CompiledTool | undefined
  /** `finalizeContent`, snapshotted at call start. */
  readonly finalize: ToolDefinition['finalizeContent'] | undefined
  /** Contexts deferred by the body through `deferContext`, in order. */
  readonly deferred: AdditionalContext[]
  /** The outcome so far; set by the first stage that decides it. */
  result: ToolExecutionResult | undefined
  /** Contexts added by the post-execute decision. */
  decisionContexts: readonly AdditionalContext[] | undefined
  /** True when post-execute blocked (tool-deferred contexts are dropped). */
  blocked: boolean
  /**
   * True once something other than the body step authored the result after the body started: a
   * wrapper's own result, the abort rule, or any post-execute change. `finalizeContent` is then
   * skipped, so no content derived from the body's side data outlives the replacement.
   */
  replacedAfterBody: boolean
  /** True once a body has been invoked. */
  bodyStarted: boolean
  /** True once the dispatch phase is over: a late `next()` from a wrapper no longer runs the body. */
  dispatched: boolean
  /**
   * Called once the body's own promise settles, before its value is normalized: a scheduler
   * frees the body's slot here. Cleared when `tools/execute` wrappers run (a wrapper may run
   * the body again, so the slot is held until the dispatch ends).
   */
  onBodySettled: (() => void) | undefined
  /** Results the body step produced, kept only while wrappers run (to recognise them in what they return). */
  produced: ToolExecutionResult[] | undefined
  /** Body promises that have not settled yet. */
  pending: Set<Promise<unknown>> | undefined
  /** What `parseArguments` produced (the body's arguments), when the definition has it. */
  parsed: { readonly value: unknown } | undefined
  /** The fiber of the ctx that made the call (its disposal ends the call), when known. */
  owner: object | undefined
  /**
   * Set when a disposal ended the call: no later stage or listener runs, and the result is
   * `ABORTED` with this error whatever the stages in flight produce.
   */
  ended: ToolAbortedError | undefined
  /** Body contexts whose `signal` was read (see `endBodies`): a disposal aborts those signals. */
  signalled: object[] | undefined
  /** The result handed to the caller, once published (by the pipeline, or at the grace bound). */
  published: ToolExecutionResult | undefined
  /** Resolves the caller's promise of an asynchronous call (see `CallLifetimes.follow`). */
  settle: ((result: ToolExecutionResult) => void) | undefined
}
