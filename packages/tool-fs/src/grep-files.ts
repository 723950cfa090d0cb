import { constants } from 'node:fs'
import fs from 'node:fs/promises'
import { looksBinary } from './internal/looks-binary'
import { truncateLine } from './internal/truncate-line'

/** How one file fared in {@link grepFile}. */
export type GrepFileResult =
  | {
      readonly status: 'searched'
      readonly matches: { number: number; text: string }[]
      readonly count: number
    }
  | { readonly status: 'skipped'; readonly reason: 'binary' | 'too-large' | 'unreadable' }

/** Options of {@link grepFile}. */
export interface GrepFileOptions {
  readonly regex: RegExp
  /** Keep at most this many matches (the rest are only counted). */
  readonly keep: number
  readonly maxFileBytes: number
  readonly maxLineLength: number
}

/**
 * Search one file line by line. The file is opened without following a final symlink and
 * must be a regular file within `maxFileBytes`; binary files are skipped. Matching lines are
 * returned (cut to `maxLineLength`, CR stripped) up to `keep`, and all are counted.
 */
export async function grepFile(real: string, options: GrepFileOptions): Promise<GrepFileResult> {
  let buffer: Buffer
  try {
    const handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    try {
      const stat = await handle.stat()
      if (!stat.isFile()) return { status: 'skipped', reason: 'unreadable' }
      if (stat.size > options.maxFileBytes) return { status: 'skipped', reason: 'too-large' }
      // One read of size + 1 bytes: a file that grew past its stat size is cut at the cap.
      buffer = Buffer.allocUnsafe(Math.min(stat.size + 1, options.maxFileBytes))
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      buffer = buffer.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  } catch {
    return { status: 'skipped', reason: 'unreadable' }
  }
  if (looksBinary(buffer)) return { status: 'skipped', reason: 'binary' }
  const text = buffer.toString('utf8')
  const matches: { number: number; text: string }[] = []
  let count = 0
  let number = 0
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0
  while (start <= text.length) {
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    if (newline === -1 && start === end) break // after a final newline (or empty file): no extra line
    number++
    let line = text.slice(start, end)
    if (line.endsWith('\r')) line = line.slice(0, -1)
    if (options.regex.test(line)) {
      count++
      if (matches.length < options.keep)
        matches.push({ number, text: truncateLine(line, options.maxLineLength) })
    }
    if (newline === -1) break
    start = newline + 1
  }
  return { status: 'searched', matches, count }
}
