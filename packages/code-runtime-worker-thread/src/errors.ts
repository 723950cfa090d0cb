/**
 * The errors this package throws: the runtime kit's classes (`@dsh/tools-codemode/runtime-kit`),
 * tagged with this package's name. Run failures are never thrown: they are `CodeRunOutcome` data.
 */
import {
  CODE_RUNTIME_ERROR_CODES,
  CodeRuntimeConfigError,
  CodeRuntimeError,
  type CodeRuntimeErrorCode,
  isCodeRuntimeError,
} from '@dsh/tools-codemode/runtime-kit'

/** The package name every error of this runtime carries as its `runtime`. */
const RUNTIME = '@dsh/code-runtime-worker-thread'

/** The error codes this package throws (the runtime kit's). */
export const WorkerRuntimeErrorCode = CODE_RUNTIME_ERROR_CODES

/** One of the {@link WorkerRuntimeErrorCode} values. */
export type WorkerRuntimeErrorCode = CodeRuntimeErrorCode

/** Base class of the errors this package throws: the runtime kit's `CodeRuntimeError` (use {@link isWorkerRuntimeError} to tell runtimes apart). */
export const WorkerRuntimeError = CodeRuntimeError

/** Base class of the errors this package throws. */
export type WorkerRuntimeError = CodeRuntimeError

/** The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem. */
export class WorkerRuntimeConfigError extends CodeRuntimeConfigError {
  constructor(issues: readonly string[]) {
    super(RUNTIME, 'worker runtime', issues)
  }
}

/** Whether `value` is an error thrown by any copy of this package. */
export function isWorkerRuntimeError(value: unknown): value is CodeRuntimeError {
  return isCodeRuntimeError(value, RUNTIME)
}
