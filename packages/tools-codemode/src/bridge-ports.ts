/**
 * The narrow views of the host the bridge needs. Keeping them structural lets the bridge be
 * unit-tested without a cordis app and keeps the per-call path free of context proxies.
 */
import type {
  ScopedEmitter,
  ScopeKey,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolSchema,
} from '@dsh/tools-core'

/** The part of `ctx.tools` the bridge uses. */
export interface ToolRuntimePort {
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>
  executionMode(input: ToolExecutionInput): ToolExecutionMode
  schemas(scope?: ScopeKey): readonly ToolSchema[]
}

/**
 * Delivers the dispatch events under the runtime's scope rule: tools-core's `ScopedEmitter`
 * (the payloads are the cordis `Events` declarations in `./events`). Both methods must be
 * cheap when nobody listens.
 */
export type DispatchEventPort = Pick<ScopedEmitter, 'listening' | 'emit'>
