import { ToolsError } from '@dsh/tools-core'

/** The error codes `@dsh/tool-bash` raises (the `info.code` of a failed result). */
export const BASH_ERROR_CODES = {
  /** The shell could not be started: missing or non-directory workdir, missing `bash`, … */
  BASH_SPAWN_FAILED: 'BASH_SPAWN_FAILED',
  /** The OS sandbox cannot run on this host and the config does not allow running without it. */
  BASH_SANDBOX_UNAVAILABLE: 'BASH_SANDBOX_UNAVAILABLE',
} as const

/** The shell process could not be started (code `BASH_SPAWN_FAILED`). Nothing ran. */
export class BashSpawnError extends ToolsError {
  /** @param message — what failed, e.g. `working directory does not exist: /x`. */
  constructor(message: string, options?: ErrorOptions) {
    super(BASH_ERROR_CODES.BASH_SPAWN_FAILED, message, options)
  }
}

/**
 * The sandbox is on, cannot run here, and `sandbox.fallback` is `'refuse'` (code
 * `BASH_SANDBOX_UNAVAILABLE`). Nothing ran.
 */
export class BashSandboxUnavailableError extends ToolsError {
  /** @param reason — why the sandbox cannot run, e.g. `bubblewrap (bwrap) cannot create namespaces: …`. */
  constructor(reason: string) {
    super(
      BASH_ERROR_CODES.BASH_SANDBOX_UNAVAILABLE,
      `the OS sandbox is unavailable (${reason}); commands are refused. Install bubblewrap, or set sandbox.fallback to 'unsandboxed' or sandbox to false in the tool-bash config`,
    )
  }
}
