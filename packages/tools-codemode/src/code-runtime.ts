/**
 * The `CodeRuntime` seam (ctx key `codeRuntime`): whatever executes a model-written program.
 * Code Mode owns the transport, the SDK text and the dispatch bridge; a runtime only runs a
 * program and forwards its binding calls to `host.call`.
 */
import type { JsonValue } from '@dsh/tools-core'

/** Languages an SDK renderer exists for. */
export type CodeLanguage = 'typescript' | 'python'

/** One program to run. */
export interface CodeRunRequest {
  /** The program: the body of an async function (TypeScript) or a module with top-level `return` (Python). */
  readonly code: string
  /** The model's one-line summary of the program. */
  readonly description: string
  /** The binding names the program may call (the calling scope's visible tools), sorted. */
  readonly toolNames: readonly string[]
}

/** What the runtime may use of the host while a program runs. */
export interface CodeRunHost {
  /**
   * Call a tool binding. Resolves to the tool's final canonical value; rejects with a
   * `ToolCallError` (toolName + message only) when the call fails for any reason.
   */
  call(name: string, args: JsonValue): Promise<JsonValue>
  /**
   * {@link call} with the arguments as JSON text (one JSON value), for a runtime that receives
   * each call's arguments as text: the host parses the text itself, so it owns the parsed value
   * and skips the defensive copy `call` makes (same limits, same refusals; text the host cannot
   * parse fails the call with a `ToolCallError`). A call without arguments goes through `call`.
   * Code Mode's host always provides it; it is optional so hand-written hosts need not.
   */
  callJson?(name: string, argsJson: string): Promise<JsonValue>
  /** Follows the outer `run_code` call's signal; the runtime must stop the program when it aborts. */
  readonly signal: AbortSignal
  /** Optional live log sink: each line as the program prints it. */
  onLog?(line: string): void
  /**
   * Present when the run is resumable (a tool state store is loaded, SPEC §13.3): a runtime that
   * supports it answers the program's first nondeterministic reads (clock, random) from
   * `replay`, in order, and reports every further read through `record` before the next binding
   * call leaves the program. A runtime without support ignores it (a replay may then diverge).
   */
  readonly reads?: CodeRunReads
}

/** Nondeterministic reads of a resumable run (see {@link CodeRunHost.reads}). */
export interface CodeRunReads {
  /** The reads of the suspended run, in order (JSON values whose form the runtime chooses). */
  readonly replay: readonly JsonValue[]
  /** Reads past `replay`, in order. */
  record(values: readonly JsonValue[]): void
}

/** Why a run failed. */
export type CodeRunFailureKind =
  | 'exception'
  | 'timeout'
  | 'abort'
  | 'worker-exit'
  | 'output-limit'
  | 'invalid-output'

/** The result of a run: logs always (eagerly captured, even for a killed program), plus a result or a failure. */
export type CodeRunOutcome =
  | { readonly ok: true; readonly logs: readonly string[]; readonly result?: JsonValue }
  | {
      readonly ok: false
      readonly kind: CodeRunFailureKind
      readonly message: string
      readonly logs: readonly string[]
    }

/** A program executor. Must settle only after the program has stopped (worker exited, process reaped). */
export interface CodeRuntime {
  readonly language: CodeLanguage
  run(request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome>
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    codeRuntime: CodeRuntime
  }
}
