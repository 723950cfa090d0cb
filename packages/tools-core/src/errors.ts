import { ToolsError } from '@dsh/tools-schema'
import type { ToolPendingApproval } from './types'

/**
 * Every error code a tool result can carry in `error.info.code`. Failures the model sees are
 * data (`{ isError: true, error }`), never thrown out of `execute`.
 */
export const ToolErrorCode = {
  /** The tool is not registered, hidden from the agent, or not directly callable in `code` mode. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** Arguments are not lossless JSON or violate the tool's `parameters`. */
  INVALID_ARGS: 'INVALID_ARGS',
  /** A pre-execute listener, the approval seam, a guard or a post-execute block refused the call. */
  DENIED: 'DENIED',
  /** The caller's signal was aborted before the body was invoked. */
  ABORTED_BEFORE_DISPATCH: 'ABORTED_BEFORE_DISPATCH',
  /** The caller's signal was aborted after the body started and the body succeeded anyway. */
  ABORTED: 'ABORTED',
  /** The body threw, or a pipeline listener/finalizer failed outside post-execute. */
  TOOL_FAILED: 'TOOL_FAILED',
  /** The canonical value (or a replacement) is not lossless JSON, violates `output.schema`, or failed to render. */
  INVALID_OUTPUT: 'INVALID_OUTPUT',
  /** A `tools/execute` wrapper (tool-call-timeout-policy) expired the tool's `timeoutMs` budget. */
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  /** A `tools/post-execute` listener threw or returned an unusable decision. */
  POST_POLICY_FAILED: 'POST_POLICY_FAILED',
  /** A Code Mode program failed (raised by `@dsh/tools-codemode`). */
  CODE_RUN_FAILED: 'CODE_RUN_FAILED',
  /**
   * The call waits for a person's decision in the durable approval store (`result.pending` names
   * the ticket). No guard and no body ran; `ctx.tools.resume(ticket)` continues it once decided.
   */
  APPROVAL_PENDING: 'APPROVAL_PENDING',
  /** The stored approval failed its signature check, or the tool changed since it was asked. */
  APPROVAL_INVALID: 'APPROVAL_INVALID',
  /** The approval expired before it was decided or resumed. */
  APPROVAL_EXPIRED: 'APPROVAL_EXPIRED',
  /**
   * A process died while the body of a non-idempotent tool ran: whether it took effect is unknown,
   * and it is never run a second time.
   */
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /** Durability is on and the tool state store cannot be reached: no body ran. */
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  /** Thrown (never a result code): a definition, registration, restriction or mode declaration is invalid. */
  INVALID_REGISTRATION: 'INVALID_REGISTRATION',
  /** Thrown (never a result code): `assemble()` cannot produce a prompt contribution. */
  ASSEMBLY_FAILED: 'ASSEMBLY_FAILED',
  /**
   * Thrown (never a result code): the runtime, or the context or agent scope the method was
   * called through, was disposed. (`execute`/`executeBatch` return `ABORTED` results instead.)
   */
  RUNTIME_DISPOSED: 'RUNTIME_DISPOSED',
} as const

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode]

/** The tool is unknown or hidden for the calling agent (code `UNKNOWN_TOOL`). */
export class UnknownToolError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.UNKNOWN_TOOL, message, options)
  }
}

/** Policy refused the call (code `DENIED`). */
export class DeniedError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.DENIED, message, options)
  }
}

/** The caller aborted before the body was invoked (code `ABORTED_BEFORE_DISPATCH`). */
export class AbortedBeforeDispatchError extends ToolsError {
  constructor(message = 'tool call aborted before dispatch', options?: ErrorOptions) {
    super(ToolErrorCode.ABORTED_BEFORE_DISPATCH, message, options)
  }
}

/** The caller aborted after the body started (code `ABORTED`). */
export class ToolAbortedError extends ToolsError {
  constructor(message = 'tool call aborted', options?: ErrorOptions) {
    super(ToolErrorCode.ABORTED, message, options)
  }
}

/** The tool body, or a pipeline stage other than post-execute, failed (code `TOOL_FAILED`). */
export class ToolFailedError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.TOOL_FAILED, message, options)
  }
}

/** The canonical value or its rendering is unusable (code `INVALID_OUTPUT`). */
export class InvalidOutputError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.INVALID_OUTPUT, message, options)
  }
}

/** The `timeoutMs` budget expired (code `TOOL_TIMEOUT`); message `tool call timed out after <ms>ms`. */
export class ToolTimeoutError extends ToolsError {
  /** The budget that expired, in milliseconds. */
  readonly timeoutMs: number

  constructor(timeoutMs: number, options?: ErrorOptions) {
    super(ToolErrorCode.TOOL_TIMEOUT, `tool call timed out after ${timeoutMs}ms`, options)
    this.timeoutMs = timeoutMs
  }
}

/** A `tools/post-execute` listener failed (code `POST_POLICY_FAILED`). */
export class PostPolicyError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.POST_POLICY_FAILED, message, options)
  }
}

/** A definition, registration, restriction or presentation declaration is invalid (thrown, code `INVALID_REGISTRATION`). */
export class ToolRegistrationError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.INVALID_REGISTRATION, message, options)
  }
}

/** `assemble()` cannot produce a prompt contribution (thrown, code `ASSEMBLY_FAILED`). */
export class ToolAssemblyError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.ASSEMBLY_FAILED, message, options)
  }
}

/**
 * The runtime, or the context or agent scope a method was called through, was disposed (thrown,
 * code `RUNTIME_DISPOSED`): registering, reading or assembling through it is a host bug, not a
 * silent no-op.
 */
export class RuntimeDisposedError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.RUNTIME_DISPOSED, message, options)
  }
}

/**
 * The tool state store cannot be reached or refused an operation (code `STORE_UNAVAILABLE`).
 * Stores throw it from every method they cannot complete; the message names the store.
 */
export class StoreUnavailableError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.STORE_UNAVAILABLE, message, options)
  }
}

/**
 * The call waits for a person's decision in the durable approval store (code `APPROVAL_PENDING`).
 * The result carries `pending` with the ticket; `ctx.tools.resume(ticket)` continues the call.
 */
export class ApprovalPendingError extends ToolsError {
  /**
   * What the failure's `result.pending` carries, when the error was thrown by a body that
   * suspended work of its own (Code Mode's run, SPEC §13.3); `failureOf` copies it over.
   */
  readonly pending?: ToolPendingApproval

  constructor(message: string, options?: ErrorOptions & { readonly pending?: ToolPendingApproval }) {
    super(ToolErrorCode.APPROVAL_PENDING, message, options)
    if (options?.pending !== undefined) this.pending = Object.freeze({ ...options.pending })
  }
}

/** A stored approval failed its signature check, or the tool changed since it was asked (code `APPROVAL_INVALID`). */
export class ApprovalInvalidError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.APPROVAL_INVALID, message, options)
  }
}

/** The approval expired before it was decided or resumed (code `APPROVAL_EXPIRED`). */
export class ApprovalExpiredError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.APPROVAL_EXPIRED, message, options)
  }
}

/**
 * A process died while a non-idempotent body ran; whether it took effect is unknown and it is
 * not run again (code `OUTCOME_UNKNOWN`).
 */
export class OutcomeUnknownError extends ToolsError {
  constructor(message: string, options?: ErrorOptions) {
    super(ToolErrorCode.OUTCOME_UNKNOWN, message, options)
  }
}
