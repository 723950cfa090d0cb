/**
 * The cordis event map of the tool runtime. Waterfall events take `next` last; a listener
 * that does not call `next()` decides on its own. Scoped listeners (registered through an
 * agent scope's ctx) see only that agent's executions; global listeners see all.
 */
import type {
  AssembleOptions,
  PostToolDecision,
  PreToolDecision,
  ToolAssembly,
  ToolDispatchExecution,
  ToolExecution,
  ToolExecutionResult,
  ToolProgressUpdate,
  ToolStageEvent,
} from './types'

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** Waterfall allow/deny/ask gate, after argument validation. */
    'tools/pre-execute'(
      execution: ToolExecution,
      next: () => Promise<PreToolDecision>,
    ): Promise<PreToolDecision>
    /**
     * Around-dispatch waterfall (timeouts, retries, metrics). A wrapper hands the signal the rest
     * of the chain should run under to `next(signal)`; `next()` hands on the one it received.
     * Calling `next()` again after the body ran (a retry) runs the body again only for a tool
     * annotated `idempotent: true`; otherwise it resolves to a `TOOL_FAILED` result and no body runs.
     */
    'tools/execute'(
      execution: ToolDispatchExecution,
      next: (signal?: AbortSignal) => Promise<ToolExecutionResult>,
    ): Promise<ToolExecutionResult>
    /** Waterfall over the normalized result: accept (optionally replacing content or value) or block. */
    'tools/post-execute'(
      execution: ToolExecution,
      result: ToolExecutionResult,
      next: () => Promise<PostToolDecision>,
    ): Promise<PostToolDecision>
    /** Observe-only notification of the final, frozen result. */
    'tools/result'(execution: ToolExecution, result: ToolExecutionResult): void
    /**
     * Observe-only progress of a running body (`exec.progress(...)`), emitted synchronously in
     * report order, always before the call's `tools/result`. A throwing listener is reported.
     */
    'tools/progress'(execution: ToolExecution, update: ToolProgressUpdate): void
    /** Observe-only stage transitions of one call (see `ToolStageEvent`), for tracing. */
    'tools/stage'(execution: ToolExecution, event: ToolStageEvent): void
    /** Shared-state notification: the registry's contents changed (register, dispose, restrict, presentAs). */
    'tools/changed'(): void
    /** Waterfall over the registry's prompt contribution; the returned assembly is authoritative. */
    'system-prompt/assemble'(
      assembly: ToolAssembly,
      options: AssembleOptions,
      next: () => ToolAssembly,
    ): ToolAssembly
  }
}
