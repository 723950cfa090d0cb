/**
 * Error codes and error classes of @dsh/tools-codemode.
 */
import { ToolsError } from '@dsh/tools-core'
import type { CodeRunFailureKind } from './code-runtime'

/** The error codes this package raises. */
export const CODE_MODE_ERROR_CODES = {
  /** A `run_code` program failed (any {@link CodeRunFailureKind}). */
  CODE_RUN_FAILED: 'CODE_RUN_FAILED',
  /** The loaded code runtime reports a language with no SDK renderer. */
  UNSUPPORTED_CODE_LANGUAGE: 'UNSUPPORTED_CODE_LANGUAGE',
  /** Code Mode is loaded but no code runtime (`codeRuntime` service) is. */
  CODE_RUNTIME_MISSING: 'CODE_RUNTIME_MISSING',
} as const

/**
 * A `run_code` program failed. The pipeline turns it into a failure result whose content is
 * `Error: code run failed (<kind>): <message>`, followed by `Captured output:` and the
 * captured lines when the program printed anything before it failed.
 */
export class CodeRunFailedError extends ToolsError {
  /** Why the run failed. */
  readonly kind: CodeRunFailureKind
  /** The runtime's failure message, without the kind prefix or the captured output. */
  readonly detail: string
  /** The lines the program printed before it failed. */
  readonly logs: readonly string[]

  constructor(kind: CodeRunFailureKind, detail: string, logs: readonly string[], options?: ErrorOptions) {
    const head = `code run failed (${kind}): ${detail}`
    super(
      CODE_MODE_ERROR_CODES.CODE_RUN_FAILED,
      logs.length > 0 ? `${head}\nCaptured output:\n${logs.join('\n')}` : head,
      options,
    )
    this.kind = kind
    this.detail = detail
    this.logs = Object.freeze([...logs])
  }
}

/**
 * Assembly asked for an SDK in a language no renderer exists for (code
 * `UNSUPPORTED_CODE_LANGUAGE`). Thrown loudly from prompt assembly.
 */
export class UnsupportedCodeLanguageError extends ToolsError {
  /** The language the loaded runtime reported. */
  readonly language: string

  constructor(language: string) {
    super(
      CODE_MODE_ERROR_CODES.UNSUPPORTED_CODE_LANGUAGE,
      `no Code Mode SDK renderer for runtime language ${JSON.stringify(language)} (supported: typescript, python)`,
    )
    this.language = language
  }
}

/**
 * Code Mode is loaded but no code runtime is (code `CODE_RUNTIME_MISSING`): thrown from prompt
 * assembly in a `code`/`both` mode, and the failure of a `run_code` call, until a runtime plugin
 * (`@dsh/code-runtime-worker-thread` or `@dsh/code-runtime-pyodide`) provides `codeRuntime`.
 */
export class CodeRuntimeMissingError extends ToolsError {
  constructor() {
    super(
      CODE_MODE_ERROR_CODES.CODE_RUNTIME_MISSING,
      'Code Mode is loaded but no code runtime is: load @dsh/code-runtime-worker-thread (TypeScript) ' +
        'or @dsh/code-runtime-pyodide (Python) to run `run_code` programs',
    )
  }
}

/**
 * What a program sees when a tool binding call fails: the tool's name and a human-readable
 * message, nothing else (no content parts, no internal error code). The host-side bridge
 * rejects with this class; a runtime rebuilds it on its side of the boundary from
 * `toolName` and `message`.
 */
export class ToolCallError extends Error {
  /** The binding that failed. */
  readonly toolName: string

  constructor(toolName: string, message: string) {
    super(message)
    this.toolName = toolName
  }
}

Object.defineProperty(ToolCallError.prototype, 'name', {
  value: 'ToolCallError',
  writable: true,
  configurable: true,
  enumerable: false,
})
