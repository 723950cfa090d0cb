import type { Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { readWindow } from '../read-window'
import { looksBinary } from './looks-binary'
import { readBounded } from './read-bounded'

/** How much of a replaced file {@link readOldText} may load, and scan to count its lines. */
export interface OldTextLimits {
  /** Files larger than this are line-counted, not loaded (`maxDiffBytes`). */
  readonly maxBytes: number
  /** Bytes scanned at most to count lines (`maxReadScanBytes`); past it the count is partial. */
  readonly maxScanBytes: number
}

/**
 * The text a write is about to replace, for its diff. A file larger than `maxBytes` is not
 * loaded: only its lines are counted (streamed, up to `maxScanBytes`); a binary file counts as
 * `{ lines: 0 }`.
 */
export async function readOldText(
  handle: FileHandle,
  stat: Stats,
  limits: OldTextLimits,
  signal: AbortSignal,
): Promise<string | { lines: number }> {
  const loaded = stat.size > limits.maxBytes ? undefined : await readBounded(handle, limits.maxBytes)
  if (loaded === undefined) {
    const counted = await readWindow(handle, {
      offset: 1,
      limit: 0,
      maxLineLength: 1,
      maxBytes: 1,
      maxScanBytes: limits.maxScanBytes,
      label: '',
      signal,
    })
      .then((window) => window.totalLines)
      .catch((error: unknown) => {
        if (signal.aborted) throw error
        return 0
      })
    return { lines: counted }
  }
  return looksBinary(loaded) ? { lines: 0 } : loaded.toString('utf8')
}
