/**
 * The narrow views of the host the bridge needs. Keeping them structural lets the bridge be
 * unit-tested without a cordis app and keeps the per-call path free of context proxies.
 */
import type {
  ScopeKey,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolSchema,
} from '@dsh/tools-core'
import type { CodeDispatchResult, CodeDispatchStart } from './events'

/** The part of `ctx.tools` the bridge uses. */
export interface ToolRuntimePort {
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>
  executionMode(input: ToolExecutionInput): ToolExecutionMode
  schemas(scope?: ScopeKey): readonly ToolSchema[]
}

/** The payload of each dispatch event. */
export interface DispatchEventPayloads {
  'tool/code-dispatch-start': CodeDispatchStart
  'tool/code-dispatch': CodeDispatchResult
}

/** Event names the bridge emits. */
export type DispatchEventName = keyof DispatchEventPayloads

/** Delivers the dispatch events; both methods must be cheap when nobody listens. */
export interface DispatchEventPort {
  /** Whether anyone at all listens to `name` (no scope filtering; the cheap pre-check). */
  listening(name: DispatchEventName): boolean
  /** Deliver `event` to the listeners that see executions of `agent` (global ones and that agent's). */
  emit<K extends DispatchEventName>(
    name: K,
    agent: ScopeKey | undefined,
    event: DispatchEventPayloads[K],
  ): void
}
