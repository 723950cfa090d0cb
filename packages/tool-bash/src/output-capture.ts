/**
 * Byte-capped capture of one output stream. Keeps the first half of the budget (the head) and
 * the last half (the tail), drops the middle and says exactly how many bytes were dropped.
 */

/** What {@link OutputCapture.finish} returns. */
export interface CapturedOutput {
  /** The decoded text, with a truncation marker between head and tail when bytes were dropped. */
  readonly text: string
  /** Total bytes the stream produced. */
  readonly totalBytes: number
  /** Bytes left out of `text` (0 when nothing was truncated). */
  readonly droppedBytes: number
}

/**
 * The marker inserted where bytes were dropped, e.g. `[… 12345 bytes truncated …]`.
 *
 * @param droppedBytes — how many bytes the marker stands for.
 */
export function truncationMarker(droppedBytes: number): string {
  return `\n[… ${droppedBytes} bytes truncated …]\n`
}

/**
 * Accumulates a stream's chunks under a byte cap. The head keeps `ceil(cap / 2)` bytes, the
 * tail the last `floor(cap / 2)` bytes (the end of a log is where errors usually are). Cuts
 * are moved to UTF-8 character boundaries, so the text never contains a split character;
 * bytes lost to such a move count as dropped.
 */
export class OutputCapture {
  private readonly headLimit: number
  private readonly tailLimit: number
  private readonly head: Buffer[] = []
  private headBytes = 0
  private tail: Buffer[] = []
  private tailBytes = 0
  private total = 0

  /** @param capBytes — the byte budget for this stream (integer ≥ 0). */
  constructor(capBytes: number) {
    this.headLimit = Math.ceil(capBytes / 2)
    this.tailLimit = Math.floor(capBytes / 2)
  }

  /** Append a chunk of raw stream output. */
  push(chunk: Buffer): void {
    this.total += chunk.length
    let rest = chunk
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length)
      this.head.push(rest.subarray(0, take))
      this.headBytes += take
      rest = rest.subarray(take)
    }
    if (rest.length === 0 || this.tailLimit === 0) return
    this.tail.push(rest)
    this.tailBytes += rest.length
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length
    }
  }

  /** Decode what was kept; call once the stream has ended. */
  finish(): CapturedOutput {
    const head = Buffer.concat(this.head)
    const kept = this.total - head.length
    const tailAll = Buffer.concat(this.tail)
    const tailRaw = tailAll.subarray(Math.max(0, tailAll.length - this.tailLimit))
    if (kept <= tailRaw.length) {
      // Nothing was dropped: head and tail are contiguous.
      return {
        text: Buffer.concat([head, tailRaw]).toString('utf8'),
        totalBytes: this.total,
        droppedBytes: 0,
      }
    }
    const headText = head.subarray(0, utf8BoundaryBefore(head, head.length))
    const tailText = tailRaw.subarray(utf8BoundaryAfter(tailRaw, 0))
    const droppedBytes = this.total - headText.length - tailText.length
    return {
      text: headText.toString('utf8') + truncationMarker(droppedBytes) + tailText.toString('utf8'),
      totalBytes: this.total,
      droppedBytes,
    }
  }
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80

/** The largest index ≤ `end` at which `buffer` can be cut without splitting a UTF-8 character. */
function utf8BoundaryBefore(buffer: Buffer, end: number): number {
  let index = end
  // Step back over continuation bytes to the lead byte of the last (possibly partial) character.
  while (index > 0 && isContinuation(buffer[index - 1])) index--
  if (index === 0) return end
  const lead = buffer[index - 1]!
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  return end - (index - 1) >= length ? end : index - 1
}

/** The smallest index ≥ `start` that does not sit inside a UTF-8 character. */
function utf8BoundaryAfter(buffer: Buffer, start: number): number {
  let index = start
  while (index < buffer.length && isContinuation(buffer[index])) index++
  return index
}
