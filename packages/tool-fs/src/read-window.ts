import type { FileHandle } from 'node:fs/promises'
import { FS_TOOL_ERROR_CODES, FsToolError } from './errors'
import { looksBinary } from './internal/looks-binary'
import { truncateLine } from './internal/truncate-line'

/** Options of {@link readWindow}. */
export interface ReadWindowOptions {
  /** 1-based first line of the window. */
  readonly offset: number
  /** Maximum number of lines in the window. */
  readonly limit: number
  /** Lines longer than this many characters are cut and marked. */
  readonly maxLineLength: number
  /** The window ends early once its line text would exceed this many UTF-8 bytes (≥ 1 line is kept). */
  readonly maxBytes: number
  /**
   * Bytes of the file read at most (window and line count together). A sparse or endless file
   * would otherwise cost time in proportion to its size; past this the count is partial.
   * Default: no bound.
   */
  readonly maxScanBytes?: number
  /** How error messages name the file. */
  readonly label: string
  readonly signal?: AbortSignal
}

/** A window of numbered lines plus the file's total line count. */
export interface ReadWindowResult {
  /** The lines of the window, numbered from `offset`. */
  readonly lines: { number: number; text: string }[]
  /** Lines in the whole file (a final line without a newline counts; an empty file has 0). */
  readonly totalLines: number
  /** True when the file has lines after the returned window. */
  readonly truncated: boolean
  /**
   * Present when reading stopped at `maxScanBytes`: `totalLines` then counts only the lines
   * seen so far (a lower bound), and the window may end early.
   */
  readonly scanStopped?: true
}

const CHUNK_BYTES = 64 * 1024
const NEWLINE = 0x0a

/**
 * Read a window of lines from an open file without loading the file: the file is streamed in
 * 64 KiB chunks, only the window's bytes are kept (long lines are kept only up to what the cut
 * needs), and the rest of the file is scanned just to count lines, up to `maxScanBytes` in all.
 * The first chunk decides whether the file is binary.
 * @throws {FsToolError} `BINARY_FILE`; the signal's reason when aborted.
 */
export async function readWindow(handle: FileHandle, options: ReadWindowOptions): Promise<ReadWindowResult> {
  const { offset, limit, maxLineLength, maxBytes, maxScanBytes = Number.POSITIVE_INFINITY } = options
  const keepBytes = maxLineLength * 4 + 4 // enough UTF-8 for maxLineLength characters (+ a CR)
  const decoder = new TextDecoder('utf-8')
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
  const lines: { number: number; text: string }[] = []
  let lineNumber = 1
  let parts: Buffer[] = []
  let keptBytes = 0
  let lineBytes = 0
  let windowOpen = limit > 0
  let outputBytes = 0
  let position = 0
  let endsWithNewline = true
  let scanStopped = false

  const collect = (bytes: Buffer) => {
    lineBytes += bytes.length
    if (keptBytes >= keepBytes) return
    const kept = bytes.subarray(0, keepBytes - keptBytes)
    parts.push(Buffer.from(kept))
    keptBytes += kept.length
  }
  const finishLine = () => {
    let text = decoder.decode(Buffer.concat(parts))
    if (text.endsWith('\r')) text = text.slice(0, -1)
    if (lineNumber === 1 && text.startsWith('\uFEFF')) text = text.slice(1)
    text = truncateLine(text, maxLineLength, lineBytes)
    parts = []
    keptBytes = 0
    lineBytes = 0
    const size = Buffer.byteLength(text) + 1
    if (lines.length > 0 && outputBytes + size > maxBytes) {
      windowOpen = false
      return
    }
    outputBytes += size
    lines.push({ number: lineNumber, text })
    if (lines.length >= limit) windowOpen = false
  }

  for (;;) {
    options.signal?.throwIfAborted()
    const budget = Math.min(CHUNK_BYTES, maxScanBytes - position)
    if (budget <= 0) {
      // Whether the file really goes on is only known by reading one more byte.
      scanStopped = (await handle.read(buffer, 0, 1, position)).bytesRead > 0
      break
    }
    const { bytesRead } = await handle.read(buffer, 0, budget, position)
    if (bytesRead === 0) break
    const chunk = buffer.subarray(0, bytesRead)
    if (position === 0 && looksBinary(chunk)) {
      throw new FsToolError(
        FS_TOOL_ERROR_CODES.BINARY_FILE,
        `${options.label} appears to be a binary file (NUL bytes or invalid UTF-8); refusing to read it as text`,
      )
    }
    position += bytesRead
    endsWithNewline = chunk[bytesRead - 1] === NEWLINE
    let start = 0
    while (windowOpen) {
      const newline = chunk.indexOf(NEWLINE, start)
      const inWindow = lineNumber >= offset
      if (inWindow) collect(chunk.subarray(start, newline === -1 ? bytesRead : newline))
      if (newline === -1) {
        start = bytesRead
        break
      }
      if (inWindow) finishLine()
      lineNumber++
      start = newline + 1
    }
    // Past the window: only count newlines.
    for (let index = chunk.indexOf(NEWLINE, start); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
      lineNumber++
    }
  }
  if (scanStopped) {
    // A line cut by the bound is shown (cut and marked) only when the window has nothing else.
    if (windowOpen && lines.length === 0 && lineNumber >= offset && lineBytes > 0) finishLine()
    const seen = Math.max(lineNumber - 1, lines[lines.length - 1]?.number ?? 0)
    return { lines, totalLines: seen, truncated: lines.length > 0, scanStopped: true }
  }
  if (!endsWithNewline) {
    if (windowOpen && lineNumber >= offset) finishLine()
    lineNumber++
  }
  const totalLines = lineNumber - 1
  const lastShown = lines.length > 0 ? lines[lines.length - 1]!.number : offset - 1
  return { lines, totalLines, truncated: lines.length > 0 && lastShown < totalLines }
}
