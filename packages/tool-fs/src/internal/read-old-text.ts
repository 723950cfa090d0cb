import type { Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { readWindow } from '../read-window'
import { looksBinary } from './looks-binary'

/**
 * The text a write is about to replace, for its diff. A file larger than `maxBytes` is not
 * loaded: only its lines are counted (streamed); a binary file counts as `{ lines: 0 }`.
 */
export async function readOldText(
  handle: FileHandle,
  stat: Stats,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string | { lines: number }> {
  if (stat.size > maxBytes) {
    const counted = await readWindow(handle, {
      offset: 1,
      limit: 0,
      maxLineLength: 1,
      maxBytes: 1,
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
  const buffer = await handle.readFile()
  return looksBinary(buffer) ? { lines: 0 } : buffer.toString('utf8')
}
