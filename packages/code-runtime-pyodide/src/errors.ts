/** The error codes this package throws. Run failures are never thrown: they are `CodeRunOutcome` data. */
export const PyodideRuntimeErrorCode = {
  /** The runtime configuration failed validation. */
  INVALID_RUNTIME_CONFIG: 'INVALID_RUNTIME_CONFIG',
} as const

/** One of the {@link PyodideRuntimeErrorCode} values. */
export type PyodideRuntimeErrorCode = (typeof PyodideRuntimeErrorCode)[keyof typeof PyodideRuntimeErrorCode]

const brand = Symbol.for('@dsh/code-runtime-pyodide/error')

/** Base class of the errors this package throws; recognised across package copies by {@link isPyodideRuntimeError}. */
export class PyodideRuntimeError extends Error {
  /** The error code. */
  readonly code: PyodideRuntimeErrorCode
  /** Brand shared by every copy of this package. */
  readonly [brand] = true

  constructor(code: PyodideRuntimeErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem. */
export class PyodideRuntimeConfigError extends PyodideRuntimeError {
  /** One line per invalid field. */
  readonly issues: readonly string[]

  constructor(issues: readonly string[]) {
    super(
      PyodideRuntimeErrorCode.INVALID_RUNTIME_CONFIG,
      `invalid pyodide runtime config: ${issues.join('; ')}`,
    )
    this.issues = issues
  }
}

/** Whether `value` is an error thrown by any copy of this package. */
export function isPyodideRuntimeError(value: unknown): value is PyodideRuntimeError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}
