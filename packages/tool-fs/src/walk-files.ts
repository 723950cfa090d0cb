import fs from 'node:fs/promises'
import path from 'node:path'
import type { PathGuard } from './path-guard'

/** A regular file found by {@link walkFiles}. */
export interface WalkedFile {
  /** Path relative to the walk's base, with `/` separators. */
  readonly relative: string
  /** Absolute path as walked (a symlinked file keeps its link path here). */
  readonly absolute: string
  /** The real path to open (the link target for a symlinked file). */
  readonly real: string
}

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  readonly guard: PathGuard
  /** Directory names never descended into (e.g. `node_modules`, `.git`). */
  readonly ignoreDirectories: ReadonlySet<string>
  readonly signal?: AbortSignal
  /** Stop after reading this many directory entries (a hostile or huge tree cannot run long). */
  readonly maxEntries?: number
  /** Called once when the walk stops early at `maxEntries`. */
  readonly onLimit?: () => void
}

/**
 * Yield every regular file under `base` (a real directory inside a root), depth first with
 * entries in code-unit order, so output is deterministic. Ignored directory names are skipped.
 * Symlinks are never descended: a symlinked file is yielded only when its target is a regular
 * file inside a root; symlinked directories are skipped (this also rules out cycles).
 * Unreadable directories are skipped silently. Uses an explicit stack, not recursion. Past
 * `maxEntries` directory entries the walk ends (after `onLimit`); `signal` is checked per entry.
 */
export async function* walkFiles(base: string, options: WalkOptions): AsyncGenerator<WalkedFile> {
  const stack: { absolute: string; relative: string; kind: 'dir' | 'file' | 'link' }[] = [
    { absolute: base, relative: '', kind: 'dir' },
  ]
  let entries = 0
  while (stack.length > 0) {
    options.signal?.throwIfAborted()
    const entry = stack.pop()!
    if (entry.kind === 'file') {
      yield { relative: entry.relative, absolute: entry.absolute, real: entry.absolute }
      continue
    }
    if (entry.kind === 'link') {
      const real = await symlinkedFile(entry.absolute, options.guard)
      if (real !== undefined) yield { relative: entry.relative, absolute: entry.absolute, real }
      continue
    }
    const children = await readDirectory(entry.absolute)
    entries += children.length
    if (options.maxEntries !== undefined && entries > options.maxEntries) {
      options.onLimit?.()
      return
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!
      const kind = child.isDirectory()
        ? 'dir'
        : child.isFile()
          ? 'file'
          : child.isSymbolicLink()
            ? 'link'
            : undefined
      if (kind === undefined) continue
      if (kind === 'dir' && options.ignoreDirectories.has(child.name)) continue
      stack.push({
        absolute: path.join(entry.absolute, child.name),
        relative: entry.relative === '' ? child.name : `${entry.relative}/${child.name}`,
        kind,
      })
    }
  }
}

async function readDirectory(directory: string) {
  try {
    const entries = await fs.readdir(directory, { withFileTypes: true })
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch {
    return []
  }
}

async function symlinkedFile(link: string, guard: PathGuard): Promise<string | undefined> {
  try {
    const real = await fs.realpath(link)
    if (guard.rootOf(real) === undefined) return undefined
    const stat = await fs.stat(real)
    return stat.isFile() ? real : undefined
  } catch {
    return undefined
  }
}
