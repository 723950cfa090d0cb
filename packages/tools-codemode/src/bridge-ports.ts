/**
 * The narrow views of the host the bridge needs. Keeping them structural lets the bridge be
 * unit-tested without a cordis app and keeps the per-call path free of context proxies.
 */
import type {
  ScopedEmitter,
  ScopeKey,
  ToolDefinition,
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
  /** The definition a name resolves to (tool fingerprints of a suspended run). */
  get?(name: string, scope?: ScopeKey): ToolDefinition | undefined
  /** Resume an approval ticket (a resumed run's calls that waited for approval). */
  resume?(ticket: string, options: { readonly signal: AbortSignal }): Promise<ToolExecutionResult>
}

/**
 * Delivers the dispatch events under the runtime's scope rule: tools-core's `ScopedEmitter`
 * (the payloads are the cordis `Events` declarations in `./events`). Both methods must be
 * cheap when nobody listens.
 */
export type DispatchEventPort = Pick<ScopedEmitter, 'listening' | 'emit'>
// The dispatch events' declarations on cordis' event map: with them wherever this port is, a
// program that imports only part of this package (the `/testing` subpath) still typechecks.
export type {} from './events'
