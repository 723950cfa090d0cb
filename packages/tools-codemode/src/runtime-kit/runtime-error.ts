/**
 * The error classes every code runtime shares. They extend tools-core's `ToolsError` (one base
 * class per project) and carry a second `Symbol.for` brand plus the throwing runtime's package
 * name, so a runtime recognises its own errors across package copies without a class of its own.
 */
import { ToolsError } from '@dsh/tools-core'

/** The error codes a code runtime throws. Run failures are never thrown: they are `CodeRunOutcome` data. */
export const CODE_RUNTIME_ERROR_CODES = {
  /** The runtime configuration failed validation. */
  INVALID_RUNTIME_CONFIG: 'INVALID_RUNTIME_CONFIG',
} as const

/** One of the {@link CODE_RUNTIME_ERROR_CODES} values. */
export type CodeRuntimeErrorCode = (typeof CODE_RUNTIME_ERROR_CODES)[keyof typeof CODE_RUNTIME_ERROR_CODES]

const brand = Symbol.for('dsh-tools.code-runtime-error')

/** Base class of the errors a code runtime throws; recognised across copies by {@link isCodeRuntimeError}. */
export class CodeRuntimeError extends ToolsError {
  /** The package name of the runtime that threw it, e.g. `@dsh/code-runtime-pyodide`. */
  readonly runtime: string
  declare readonly code: CodeRuntimeErrorCode

  constructor(runtime: string, code: CodeRuntimeErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options)
    this.runtime = runtime
    Object.defineProperty(this, brand, { value: true })
  }
}

/**
 * The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem and
 * the message reads `invalid <label> config: <issue>; <issue>`.
 */
export class CodeRuntimeConfigError extends CodeRuntimeError {
  /** One line per invalid field. */
  readonly issues: readonly string[]

  constructor(runtime: string, label: string, issues: readonly string[]) {
    super(
      runtime,
      CODE_RUNTIME_ERROR_CODES.INVALID_RUNTIME_CONFIG,
      `invalid ${label} config: ${issues.join('; ')}`,
    )
    this.issues = Object.freeze([...issues])
  }
}

/**
 * Whether `value` is a {@link CodeRuntimeError} from any copy of this package; with `runtime`,
 * only one thrown by that runtime (its package name).
 */
export function isCodeRuntimeError(value: unknown, runtime?: string): value is CodeRuntimeError {
  if (typeof value !== 'object' || value === null) return false
  if ((value as { [brand]?: unknown })[brand] !== true) return false
  return runtime === undefined || (value as { runtime?: unknown }).runtime === runtime
}
