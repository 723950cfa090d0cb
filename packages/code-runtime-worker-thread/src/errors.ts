/** The error codes this package throws. Run failures are never thrown: they are `CodeRunOutcome` data. */
export const WorkerRuntimeErrorCode = {
  /** The runtime configuration failed validation. */
  INVALID_RUNTIME_CONFIG: 'INVALID_RUNTIME_CONFIG',
} as const

/** One of the {@link WorkerRuntimeErrorCode} values. */
export type WorkerRuntimeErrorCode = (typeof WorkerRuntimeErrorCode)[keyof typeof WorkerRuntimeErrorCode]

const brand = Symbol.for('@dsh/code-runtime-worker-thread/error')

/** Base class of the errors this package throws; recognised across package copies by {@link isWorkerRuntimeError}. */
export class WorkerRuntimeError extends Error {
  /** The error code. */
  readonly code: WorkerRuntimeErrorCode
  /** Brand shared by every copy of this package. */
  readonly [brand] = true

  constructor(code: WorkerRuntimeErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** The configuration is invalid (code `INVALID_RUNTIME_CONFIG`); `issues` lists every problem. */
export class WorkerRuntimeConfigError extends WorkerRuntimeError {
  /** One line per invalid field. */
  readonly issues: readonly string[]

  constructor(issues: readonly string[]) {
    super(
      WorkerRuntimeErrorCode.INVALID_RUNTIME_CONFIG,
      `invalid worker runtime config: ${issues.join('; ')}`,
    )
    this.issues = issues
  }
}

/** Whether `value` is an error thrown by any copy of this package. */
export function isWorkerRuntimeError(value: unknown): value is WorkerRuntimeError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}
