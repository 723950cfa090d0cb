import { ToolsError } from '@dsh/tools-core'

/** The error codes `@dsh/tool-bash` raises (the `info.code` of a failed result). */
export const BASH_ERROR_CODES = {
  /** The shell could not be started: missing or non-directory workdir, missing `bash`, … */
  BASH_SPAWN_FAILED: 'BASH_SPAWN_FAILED',
} as const

/** The shell process could not be started (code `BASH_SPAWN_FAILED`). Nothing ran. */
export class BashSpawnError extends ToolsError {
  /** @param message — what failed, e.g. `working directory does not exist: /x`. */
  constructor(message: string, options?: ErrorOptions) {
    super(BASH_ERROR_CODES.BASH_SPAWN_FAILED, message, options)
  }
}
