/**
 * The errors this package throws: the runtime kit's classes, tagged with this package's name.
 * Run failures are never thrown: they are `CodeRunOutcome` data.
 */
import {
  CodeRuntimeConfigError,
  type CodeRuntimeError,
  isCodeRuntimeError,
} from '@dsh/tools-codemode/runtime-kit'

/** The package name every error of this runtime carries as its `runtime`. */
const RUNTIME = '@dsh/code-runtime-pyodide'

/** The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem. */
export class PyodideRuntimeConfigError extends CodeRuntimeConfigError {
  constructor(issues: readonly string[]) {
    super(RUNTIME, 'pyodide runtime', issues)
  }
}

/** Whether `value` is an error thrown by any copy of this package (a `CodeRuntimeError` of this runtime). */
export function isPyodideRuntimeError(value: unknown): value is CodeRuntimeError {
  return isCodeRuntimeError(value, RUNTIME)
}
