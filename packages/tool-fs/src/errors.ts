import { ToolsError } from '@dsh/tools-core'

/**
 * Error codes of `@dsh/tool-fs`. A failed tool call surfaces as an `isError` result whose
 * `error.info.code` is one of these (the runtime maps any thrown {@link FsToolError}).
 */
export const FS_TOOL_ERROR_CODES = {
  /** The path resolves (after symlinks) outside every configured root. */
  OUTSIDE_ROOTS: 'OUTSIDE_ROOTS',
  /** The path argument is unusable (empty, contains a NUL byte, dangling or looping symlink). */
  INVALID_PATH: 'INVALID_PATH',
  /** The file or directory does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** A file was expected but the path names a directory (or vice versa, or a special file). */
  WRONG_FILE_TYPE: 'WRONG_FILE_TYPE',
  /** The file looks binary (NUL bytes or invalid UTF-8 at its start). */
  BINARY_FILE: 'BINARY_FILE',
  /** `edit`: more than 10,000 replacements, or a result larger than `maxEditBytes`. */
  EDIT_TOO_LARGE: 'EDIT_TOO_LARGE',
  /** `edit`: the file is larger than `maxEditBytes` (edit loads a file whole). */
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  /** The path changed between the confinement check and its use (e.g. swapped for a symlink). */
  PATH_CHANGED: 'PATH_CHANGED',
  /** `edit`: `old_string` does not occur in the file. */
  EDIT_NOT_FOUND: 'EDIT_NOT_FOUND',
  /** `edit`: `old_string` occurs more than once and `replace_all` is not set. */
  EDIT_NOT_UNIQUE: 'EDIT_NOT_UNIQUE',
  /** `edit`: the arguments would not change anything (empty or identical strings). */
  EDIT_NO_CHANGE: 'EDIT_NO_CHANGE',
  /** Read-before-write policy: the file was never read, or changed since it was read. */
  NOT_READ: 'NOT_READ',
  /** A `glob`/`grep` pattern is invalid, unsupported (lookaround, backreference, extglob) or past its bounds. */
  INVALID_PATTERN: 'INVALID_PATTERN',
  /** `grep` ran past its time budget (`grepTimeoutMs`); its worker was terminated. */
  SEARCH_BUDGET_EXCEEDED: 'SEARCH_BUDGET_EXCEEDED',
  /** `grep`'s worker thread failed (e.g. ran out of memory) and was terminated. */
  SEARCH_FAILED: 'SEARCH_FAILED',
  /** The plugin configuration is invalid (e.g. a root that does not exist). */
  INVALID_CONFIG: 'INVALID_CONFIG',
} as const

/** One of the {@link FS_TOOL_ERROR_CODES}. */
export type FsToolErrorCode = (typeof FS_TOOL_ERROR_CODES)[keyof typeof FS_TOOL_ERROR_CODES]

/** The error every `@dsh/tool-fs` failure throws; `code` is one of {@link FS_TOOL_ERROR_CODES}. */
export class FsToolError extends ToolsError {
  declare readonly code: FsToolErrorCode

  constructor(code: FsToolErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}
