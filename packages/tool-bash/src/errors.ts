import { ToolsError } from '@dsh/tools-core'

/** The error codes `@dsh/tool-bash` raises (the `info.code` of a failed result). */
export const BASH_ERROR_CODES = {
  /** The shell could not be started: missing or non-directory workdir, missing `bash`, … */
  BASH_SPAWN_FAILED: 'BASH_SPAWN_FAILED',
  /** The OS sandbox cannot run on this host and the config does not allow running without it. */
  BASH_SANDBOX_UNAVAILABLE: 'BASH_SANDBOX_UNAVAILABLE',
  /** The protected entries of the writable roots could not be computed; nothing ran. */
  BASH_PROTECTION_UNAVAILABLE: 'BASH_PROTECTION_UNAVAILABLE',
  /** The command created or changed protected entries (moved aside), or they could not be checked. */
  BASH_PROTECTION_VIOLATED: 'BASH_PROTECTION_VIOLATED',
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

/**
 * The sandbox protects entries that host tools run or obey (see the README's "Protected
 * entries"). Code `BASH_PROTECTION_UNAVAILABLE` when they could not be computed before the call
 * (too many entries, an unreadable directory) — nothing ran; code `BASH_PROTECTION_VIOLATED`
 * when the command created or changed some (they were moved aside, the message names them) or
 * the writable roots could not be checked after it.
 */
export class BashProtectionError extends ToolsError {
  /**
   * @param message — what was found, naming the entries.
   * @param options.ran — whether the command ran (selects the code).
   */
  constructor(message: string, options: ErrorOptions & { readonly ran: boolean }) {
    super(
      options.ran ? BASH_ERROR_CODES.BASH_PROTECTION_VIOLATED : BASH_ERROR_CODES.BASH_PROTECTION_UNAVAILABLE,
      message,
      options,
    )
  }
}
