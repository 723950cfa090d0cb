import type { Stats } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomic } from './atomic-write'
import { FS_TOOL_ERROR_CODES, FsToolError } from './errors'
import type { FsToolContext } from './fs-tool-context'
import type { ResolvedPath } from './path-guard'

/**
 * Enforce the read-before-write policy (when enabled) for an existing file.
 * @throws {FsToolError} `NOT_READ` when `agent` never read the file or it changed since.
 */
export function assertReadBeforeWrite(
  context: FsToolContext,
  agent: string | undefined,
  resolved: ResolvedPath,
  stat: Stats,
): void {
  if (!context.config.requireReadBeforeWrite) return
  const refusal = context.tracker.check(agent, resolved.real, stat)
  if (refusal === 'unread') {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.NOT_READ,
      `${resolved.input} exists but has not been read yet; read it before writing to it`,
    )
  }
  if (refusal === 'changed') {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.NOT_READ,
      `${resolved.input} has changed since it was last read; read it again before writing to it`,
    )
  }
}

/** Options of {@link commitWrite}. */
export interface CommitOptions {
  /** Permission bits to keep (the replaced file's); new files get the default. */
  readonly mode?: number
  /** The file as it was when its old content was read; the write fails if it changed since. */
  readonly expected?: Stats
}

/**
 * Atomically write `content` to an approved path: create missing parent directories, re-check
 * that the directory is still the real, confined one right before the rename, refuse if the
 * file changed since `expected`, then record the new version as seen by `agent`.
 * @throws {FsToolError} `PATH_CHANGED`, `WRONG_FILE_TYPE`.
 */
export async function commitWrite(
  context: FsToolContext,
  agent: string | undefined,
  resolved: ResolvedPath,
  content: string,
  options: CommitOptions = {},
): Promise<void> {
  const directory = path.dirname(resolved.real)
  try {
    await fs.mkdir(directory, { recursive: true })
  } catch (error) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.WRONG_FILE_TYPE,
      `cannot create the parent directory of ${resolved.input}: ${String(error)}`,
      { cause: error },
    )
  }
  await writeFileAtomic(resolved.real, content, {
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    beforeCommit: async () => {
      await context.guard.verifyDirectory(directory, resolved.input)
      if (options.expected !== undefined) await assertUnchanged(resolved, options.expected)
    },
  })
  context.tracker.record(agent, resolved.real, await fs.stat(resolved.real))
}

async function assertUnchanged(resolved: ResolvedPath, expected: Stats): Promise<void> {
  const current = await fs.lstat(resolved.real).catch(() => undefined)
  const same =
    current !== undefined &&
    current.ino === expected.ino &&
    current.mtimeMs === expected.mtimeMs &&
    current.size === expected.size
  if (!same) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.PATH_CHANGED,
      `${resolved.input} was modified by someone else while it was being edited; nothing was written`,
    )
  }
}
