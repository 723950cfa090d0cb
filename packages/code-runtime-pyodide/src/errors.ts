/**
 * The errors this package throws: the runtime kit's classes, tagged with this package's name.
 * Run failures are never thrown: they are `CodeRunOutcome` data.
 */
import {
  CODE_RUNTIME_ERROR_CODES,
  CodeRuntimeConfigError,
  CodeRuntimeError,
  type CodeRuntimeErrorCode,
  isCodeRuntimeError,
} from '@dsh/tools-codemode/runtime-kit'

/** The package name every error of this runtime carries as its `runtime`. */
const RUNTIME = '@dsh/code-runtime-pyodide'

/** The error codes this package throws (the runtime kit's). */
export const PyodideRuntimeErrorCode = CODE_RUNTIME_ERROR_CODES

/** One of the {@link PyodideRuntimeErrorCode} values. */
export type PyodideRuntimeErrorCode = CodeRuntimeErrorCode

/** Base class of the errors this package throws: the runtime kit's `CodeRuntimeError` (use {@link isPyodideRuntimeError} to tell runtimes apart). */
export const PyodideRuntimeError = CodeRuntimeError

/** Base class of the errors this package throws. */
export type PyodideRuntimeError = CodeRuntimeError

/** The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem. */
export class PyodideRuntimeConfigError extends CodeRuntimeConfigError {
  constructor(issues: readonly string[]) {
    super(RUNTIME, 'pyodide runtime', issues)
  }
}

/** Whether `value` is an error thrown by any copy of this package. */
export function isPyodideRuntimeError(value: unknown): value is CodeRuntimeError {
  return isCodeRuntimeError(value, RUNTIME)
}
