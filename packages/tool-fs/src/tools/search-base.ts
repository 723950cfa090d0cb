import fs from 'node:fs/promises'
import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'
import type { FsToolContext } from '../fs-tool-context'
import type { ResolvedPath } from '../path-guard'

/** Where a search starts: a confined, existing directory (or, for `grep`, possibly a file). */
export interface SearchBase {
  readonly resolved: ResolvedPath
  readonly isDirectory: boolean
}

/**
 * Resolve the `path` argument of `glob`/`grep` (default: the first root).
 * @throws {FsToolError} `OUTSIDE_ROOTS`, `NOT_FOUND`, `WRONG_FILE_TYPE` (a file when `allowFile` is false).
 */
export async function resolveSearchBase(
  context: FsToolContext,
  input: string | undefined,
  allowFile: boolean,
): Promise<SearchBase> {
  const resolved = await context.guard.resolve(input ?? '.')
  const stat = resolved.exists ? await fs.stat(resolved.real).catch(() => undefined) : undefined
  if (stat === undefined)
    throw new FsToolError(FS_TOOL_ERROR_CODES.NOT_FOUND, `path not found: ${resolved.input}`)
  if (stat.isDirectory()) return { resolved, isDirectory: true }
  if (allowFile && stat.isFile()) return { resolved, isDirectory: false }
  throw new FsToolError(FS_TOOL_ERROR_CODES.WRONG_FILE_TYPE, `${resolved.input} is not a directory`)
}

/**
 * Reject glob patterns that try to leave the search base (absolute, or with `..` segments):
 * patterns are matched against paths relative to the base.
 * @throws {FsToolError} `INVALID_PATTERN`.
 */
export function assertRelativePattern(pattern: string, argument: string): void {
  if (pattern.length === 0)
    throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATTERN, `${argument} must not be empty`)
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATTERN,
      `${argument} "${pattern}" must be relative to the search directory, without ".." (pass the directory as path)`,
    )
  }
}

/** The note a search value carries when it stopped at a bound, so the model knows it is partial. */
export function stoppedNote(stoppedAt: string | undefined): string {
  return stoppedAt === undefined
    ? ''
    : `\n\n(search stopped early at the ${stoppedAt} bound; results are partial: narrow the path or glob)`
}
