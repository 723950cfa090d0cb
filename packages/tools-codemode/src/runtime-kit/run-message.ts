/**
 * The message that starts a run, the same for every runtime's worker, and what a runtime's
 * session needs besides its worker.
 */
import type { CodeRunHost } from '../code-runtime'

/** The message that starts a run (host → worker, once, after the boot). */
export interface RunMessage {
  readonly k: 'run'
  /** The program, as the engine's worker runs it. */
  readonly code: string
  /** JSON text of the allowed binding names. */
  readonly names: string
  /** `maxOutputBytes`, enforced early in the worker and again on the host. */
  readonly limit: number
  /** `maxLogLines`: the line past it ends the run as `output-limit`, in the worker and again on the host. */
  readonly lines: number
  /** `maxValueNodes`, checked on each value in the worker before it is posted, and again on the host. */
  readonly nodes?: number
  /** `maxValueDepth`, likewise. */
  readonly depth?: number
}

/** The limits a {@link RunMessage} carries. */
export interface RunMessageLimits {
  readonly maxOutputBytes: number
  readonly maxLogLines: number
  readonly maxValueNodes: number
  readonly maxValueDepth: number
}

/** The run message for `source` with bindings `toolNames`, under `limits`. */
export function runMessage(
  source: string,
  toolNames: readonly string[],
  limits: RunMessageLimits,
): RunMessage {
  return {
    k: 'run',
    code: source,
    names: JSON.stringify(toolNames),
    limit: limits.maxOutputBytes,
    lines: limits.maxLogLines,
    nodes: limits.maxValueNodes,
    depth: limits.maxValueDepth,
  }
}

/** What every run's session gets from the runtime shell (`PooledCodeRuntime`). */
export interface RunRequestParts {
  /** The program, as the engine's worker runs it. */
  readonly source: string
  readonly toolNames: readonly string[]
  readonly host: CodeRunHost
  /** Aborted when the runtime is disposed: the run ends as `abort`. */
  readonly shutdown: AbortSignal
}

/** What one run's session needs besides its worker; a runtime adds its own fields. */
export interface RunSessionInput<C> extends RunRequestParts {
  readonly config: C
}
