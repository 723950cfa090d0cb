import { constants, realpathSync, type Stats } from 'node:fs'
import fs, { type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { FS_TOOL_ERROR_CODES, FsToolError } from './errors'
import { errorCode } from './internal/error-code'

/** A tool path after resolution: absolute, symlinks resolved, known to lie inside a root. */
export interface ResolvedPath {
  /** The path as the model wrote it. */
  readonly input: string
  /**
   * The real path: `realpath()` of the file, or — for a path that does not exist yet —
   * `realpath()` of its deepest existing ancestor joined with the missing components.
   */
  readonly real: string
  /** Whether the path existed when it was resolved. */
  readonly exists: boolean
  /** The root that contains `real`. */
  readonly root: string
}

/** An open, verified regular file (see {@link PathGuard.openFile}). Close `handle` when done. */
export interface OpenedFile {
  readonly handle: FileHandle
  readonly stat: Stats
}

const OPEN_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * Confines tool paths to workspace roots. Every path is resolved against the first root,
 * symlinks included, and must end inside a root; files are opened without following a final
 * symlink and the opened descriptor is checked against the path that was approved, so a file
 * swapped for a symlink between check and use is detected.
 */
export class PathGuard {
  /** The real (symlink-free) absolute roots. */
  readonly roots: readonly string[]

  /**
   * @param roots — absolute or relative root directories; each must exist.
   * @throws {FsToolError} `INVALID_CONFIG` when a root does not exist or is not a directory.
   */
  constructor(roots: readonly string[]) {
    this.roots = Object.freeze(roots.map(realRoot))
  }

  /** The root containing `real`, or `undefined` when it lies outside every root. */
  rootOf(real: string): string | undefined {
    return this.roots.find(
      (root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep),
    )
  }

  /** How tool values show a real path: relative to the first root when inside it, else absolute. */
  display(real: string): string {
    const first = this.roots[0]!
    if (this.rootOf(real) !== first) return real
    return path.relative(first, real).split(path.sep).join('/') || '.'
  }

  /**
   * Resolve a model-supplied path (relative to the first root) and check confinement.
   * @throws {FsToolError} `INVALID_PATH`, `OUTSIDE_ROOTS`.
   */
  async resolve(input: string): Promise<ResolvedPath> {
    if (input.length === 0) throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATH, 'path must not be empty')
    if (input.includes('\0'))
      throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATH, 'path must not contain NUL')
    const absolute = path.resolve(this.roots[0]!, input)
    assertPathLength(absolute)
    const { real, exists } = await realpathAllowingMissing(absolute, input)
    const root = this.rootOf(real)
    if (root === undefined) {
      throw new FsToolError(
        FS_TOOL_ERROR_CODES.OUTSIDE_ROOTS,
        `${input} resolves to ${real}, which is outside the workspace roots (${this.roots.join(', ')})`,
      )
    }
    return { input, real, exists, root }
  }

  /**
   * Open an approved path as a regular file for reading. The final component is never
   * followed (`O_NOFOLLOW`), and the descriptor is verified to be the approved file inside a
   * root, so a swap between {@link resolve} and this call fails with `PATH_CHANGED`.
   * @throws {FsToolError} `NOT_FOUND`, `WRONG_FILE_TYPE`, `PATH_CHANGED`.
   */
  async openFile(resolved: ResolvedPath): Promise<OpenedFile> {
    let handle: FileHandle
    try {
      handle = await fs.open(resolved.real, OPEN_READ_FLAGS)
    } catch (error) {
      throw this.openError(error, resolved)
    }
    try {
      const stat = await handle.stat()
      await this.verifyDescriptor(handle, stat, resolved)
      if (stat.isDirectory()) {
        throw new FsToolError(
          FS_TOOL_ERROR_CODES.WRONG_FILE_TYPE,
          `${resolved.input} is a directory, not a file`,
        )
      }
      if (!stat.isFile()) {
        throw new FsToolError(FS_TOOL_ERROR_CODES.WRONG_FILE_TYPE, `${resolved.input} is not a regular file`)
      }
      return { handle, stat }
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  /**
   * Check that a directory about to receive a write is still the approved, real directory
   * inside a root (no component swapped for a symlink since resolution).
   * @throws {FsToolError} `PATH_CHANGED`.
   */
  async verifyDirectory(directory: string, input: string): Promise<void> {
    const real = await fs.realpath(directory).catch(() => undefined)
    if (real !== directory || this.rootOf(real) === undefined) {
      throw new FsToolError(
        FS_TOOL_ERROR_CODES.PATH_CHANGED,
        `the directory of ${input} changed while it was being written (a component became a symlink?)`,
      )
    }
  }

  /**
   * Whether an open descriptor is the file at `real` (an approved real path) and lies inside a
   * root. On Linux the kernel names the descriptor's file (`/proc/self/fd/N`); elsewhere the path's
   * `lstat` dev+ino must match `stat` (the descriptor's) and its `realpath` must be unchanged.
   * False when a component was swapped for a symlink between the check and the open.
   */
  async isOpenedInside(handle: FileHandle, stat: Stats, real: string): Promise<boolean> {
    const fdPath = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
    if (fdPath !== undefined) return fdPath === real && this.rootOf(fdPath) !== undefined
    const [current, resolved] = await Promise.all([
      fs.lstat(real).catch(() => undefined),
      fs.realpath(real).catch(() => undefined),
    ])
    return (
      current?.dev === stat.dev &&
      current.ino === stat.ino &&
      resolved === real &&
      this.rootOf(real) !== undefined
    )
  }

  private async verifyDescriptor(handle: FileHandle, stat: Stats, resolved: ResolvedPath): Promise<void> {
    if (await this.isOpenedInside(handle, stat, resolved.real)) return
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.PATH_CHANGED,
      `${resolved.input} changed between the confinement check and opening it; refusing to use it`,
    )
  }

  private openError(error: unknown, resolved: ResolvedPath): FsToolError {
    const code = errorCode(error)
    if (code === 'ELOOP') {
      return new FsToolError(
        FS_TOOL_ERROR_CODES.PATH_CHANGED,
        `${resolved.input} became a symbolic link after it was checked; refusing to follow it`,
        { cause: error },
      )
    }
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return new FsToolError(FS_TOOL_ERROR_CODES.NOT_FOUND, `file not found: ${resolved.input}`, {
        cause: error,
      })
    }
    return new FsToolError(
      FS_TOOL_ERROR_CODES.WRONG_FILE_TYPE,
      `cannot open ${resolved.input}: ${String(error)}`,
      {
        cause: error,
      },
    )
  }
}

/** Linux's PATH_MAX and NAME_MAX, in bytes: longer paths fail every syscall anyway. */
const MAX_PATH_BYTES = 4096
const MAX_NAME_BYTES = 255

/**
 * Refuse a path the kernel would refuse (ENAMETOOLONG) before touching the filesystem, with an
 * error that does not echo a path of unbounded length back to the model.
 */
function assertPathLength(absolute: string): void {
  if (Buffer.byteLength(absolute) >= MAX_PATH_BYTES) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATH,
      `path is too long (${Buffer.byteLength(absolute)} bytes once resolved; the limit is ${MAX_PATH_BYTES - 1})`,
    )
  }
  const long = absolute.split(path.sep).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)
  if (long !== undefined) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATH,
      `a path component is too long (${Buffer.byteLength(long)} bytes; the limit is ${MAX_NAME_BYTES}): ${long.slice(0, 40)}…`,
    )
  }
}

function realRoot(root: string): string {
  try {
    return realpathSync.native(path.resolve(root))
  } catch (error) {
    throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_CONFIG, `workspace root ${root} does not exist`, {
      cause: error,
    })
  }
}

/** `realpath()`, or for a missing path the realpath of its deepest existing ancestor + the rest. */
async function realpathAllowingMissing(
  absolute: string,
  input: string,
): Promise<{ real: string; exists: boolean }> {
  const missing: string[] = []
  let current = absolute
  for (;;) {
    try {
      const base = await fs.realpath(current)
      return { real: missing.length === 0 ? base : path.join(base, ...missing), exists: missing.length === 0 }
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ELOOP') {
        throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATH, `${input} contains a symlink loop`, {
          cause: error,
        })
      }
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        // EACCES, EIO, …: whatever it is, the path cannot be proven inside a root.
        throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATH, `cannot resolve ${input}: ${String(error)}`, {
          cause: error,
        })
      }
      // A component that lstat() sees but realpath() cannot resolve is a dangling symlink:
      // its target is unknown, so we cannot prove a write through it stays inside a root.
      const present = await fs.lstat(current).then(
        () => true,
        () => false,
      )
      if (present) {
        throw new FsToolError(
          FS_TOOL_ERROR_CODES.INVALID_PATH,
          `${input} goes through a symbolic link whose target does not exist (${current})`,
        )
      }
      const parent = path.dirname(current)
      if (parent === current) throw error
      missing.unshift(path.basename(current))
      current = parent
    }
  }
}
