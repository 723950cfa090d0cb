import type { ToolProgressUpdate } from '@dsh/tools-core'

/** Options of {@link ProgressMeter}. */
export interface ProgressMeterOptions {
  /** Least time between two reports, in ms; the first report waits one interval from start. */
  readonly intervalMs: number
  /** Where reports go (the body's `exec.progress`). */
  readonly report: (update: ToolProgressUpdate) => void
  /** The clock, in ms (default `performance.now`); injectable so tests drive time themselves. */
  readonly now?: () => number
}

const NEWLINE = 0x0a

/**
 * Counts the output of a running command (bytes and lines across stdout and stderr) and turns
 * it into throttled progress reports: at most one per interval, and only when output arrives,
 * so a quick command reports nothing and a chatty one cannot flood the event stream.
 */
export class ProgressMeter {
  private bytes = 0
  private lines = 0
  private readonly now: () => number
  private last: number

  /** @param options — interval, sink and clock. */
  constructor(private readonly options: ProgressMeterOptions) {
    this.now = options.now ?? (() => performance.now())
    this.last = this.now()
  }

  /** Count one chunk of output and report if an interval has passed since the last report. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length
    // Counting newline bytes is exact for UTF-8 (0x0a never occurs inside a multi-byte char).
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
      this.lines++
    }
    const now = this.now()
    if (now - this.last < this.options.intervalMs) return
    this.last = now
    this.options.report({
      message: `${this.bytes} bytes, ${this.lines} lines of output so far`,
      progress: this.bytes,
    })
  }
}
