/**
 * What the docs' short samples take for granted. A sample that is not a whole program
 * (`ctx.tools.defer(['deploy'])` in a list of methods) is checked as if the reader's code around
 * it had these: the names below that it uses and does not declare itself are imported from here,
 * and, for a sample without imports, every export of the package whose README it is in.
 * Declarations only: nothing here runs.
 */
import type { Context } from '@deepseek-ai/cordis'
import type {
  ObjectJsonSchema,
  ToolDefinition,
  ToolExecution,
  ToolExecutionInput,
  ToolRunContext,
  ToolScope,
} from '@dsh/tools-core'

export * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
export { default as ToolRuntime } from '@dsh/tools-core'
export { z } from 'zod'

/** A context with `ToolRuntime` loaded (`ctx.tools`). */
export declare const ctx: Context
/** An agent scope (`createScope(ctx, 'agent-1')`). */
export declare const agent: ToolScope
/** A tool of the reader's. */
export declare const myTool: ToolDefinition
/** The running call, inside a tool body or a listener. */
export declare const exec: ToolExecution & ToolRunContext
/** A model turn's calls. */
export declare const calls: readonly ToolExecutionInput[]
export declare const signal: AbortSignal
export declare const payload: unknown
/** The reader's logger. */
export declare function log(...values: unknown[]): void
/** A tool's parameters as JSON Schema. */
export declare const params: ObjectJsonSchema
export declare const readSchema: ObjectJsonSchema
