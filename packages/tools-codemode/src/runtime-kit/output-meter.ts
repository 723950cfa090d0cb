/**
 * The output budget of one run: log lines and the completion payload share `maxOutputBytes`,
 * and lines are optionally capped in number too. The host keeps its own count, whatever the
 * run thread claims, so a thread that skips its own accounting still stops at the cap.
 */
import { countNoun } from './count-noun'

/** The limits an {@link OutputMeter} enforces. */
export interface OutputLimits {
  /** Cap on the UTF-8 bytes of every line (at its cost) plus the completion payload. */
  readonly maxOutputBytes: number
  /** Cap on the number of lines, if any. */
  readonly maxLogLines?: number
}

/** What one log line costs of the byte budget. */
export type LineCost = (line: string) => number

/** A line costs its UTF-8 size and at least one byte, so empty lines are not free. */
export const utf8LineCost: LineCost = (line) => Math.max(1, Buffer.byteLength(line, 'utf8'))

/** A line costs its UTF-8 size plus its line break. */
export const utf8LineWithBreakCost: LineCost = (line) => Buffer.byteLength(line, 'utf8') + 1

/** Counts a run's output against its {@link OutputLimits}. */
export class OutputMeter {
  readonly #limits: OutputLimits
  readonly #lineCost: LineCost
  #bytes = 0
  #lines = 0

  /** A meter for one run; `lineCost` prices each line (see {@link utf8LineCost}). */
  constructor(limits: OutputLimits, lineCost: LineCost) {
    this.#limits = limits
    this.#lineCost = lineCost
  }

  /** Bytes accounted so far. */
  get bytes(): number {
    return this.#bytes
  }

  /** Lines accounted so far. */
  get lines(): number {
    return this.#lines
  }

  /**
   * Account one line: `undefined` when it fits (it is then counted), otherwise the limit message
   * (and nothing is counted).
   */
  admitLine(line: string): string | undefined {
    const { maxLogLines } = this.#limits
    if (maxLogLines !== undefined && this.#lines >= maxLogLines) {
      return `output exceeded maxLogLines (${countNoun(maxLogLines, 'line')})`
    }
    const cost = this.#lineCost(line)
    if (this.#bytes + cost > this.#limits.maxOutputBytes) return this.#overBytes('output')
    this.#bytes += cost
    this.#lines += 1
    return undefined
  }

  /**
   * Check a completion payload of `payload` against the bytes left: the limit message naming
   * `what` it is (`result` or `failure message`), or `undefined` when it fits.
   */
  payloadIssue(payload: string | undefined, what: 'result' | 'failure message'): string | undefined {
    const size = payload === undefined ? 0 : Buffer.byteLength(payload, 'utf8')
    return this.#bytes + size > this.#limits.maxOutputBytes ? this.#overBytes(what) : undefined
  }

  #overBytes(what: string): string {
    return `${what} exceeded maxOutputBytes (${countNoun(this.#limits.maxOutputBytes, 'byte')})`
  }
}
