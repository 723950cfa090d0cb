/**
 * The node:vm worker's log accounting: counts every line against the run's byte and line limits
 * and decides how lines travel to the host. The first {@link EAGER_LINES} lines of an
 * event-loop turn are posted at once (a program killed in a hot loop still shows what it
 * printed); beyond that they travel in batches, so a flood costs the host one message per
 * {@link LOG_BATCH_LINES} lines or {@link LOG_BATCH_BYTES} bytes instead of one per line (each
 * message is a separate wake-up and allocation on the host).
 */

/** Lines posted one message each per event-loop turn before batching starts. */
export const EAGER_LINES = 64
/** Lines per batch message. */
export const LOG_BATCH_LINES = 1024
/** UTF-8 bytes (plus one per line) after which a batch is posted early. */
export const LOG_BATCH_BYTES = 65536

/** The log messages of the wire protocol (`protocol/messages.ts`). */
export type LogMessage =
  | { readonly k: 'log'; readonly l: string }
  | { readonly k: 'logs'; readonly l: string[] }

/** What a {@link LogAccount} needs from its worker. */
export interface LogAccountPorts {
  readonly post: (message: LogMessage) => void
  /** Run `callback` at the end of the current event-loop turn (`setImmediate` in the worker). */
  readonly endOfTurn: (callback: () => void) => void
}

/** Byte and line accounting of one run's console output. */
export class LogAccount {
  readonly #ports: LogAccountPorts
  #byteLimit = 0
  #lineLimit = Number.POSITIVE_INFINITY
  #bytes = 0
  #lines = 0
  #eagerLeft = EAGER_LINES
  #batch: string[] = []
  #batchBytes = 0
  #turnQueued = false
  #closed = false

  constructor(ports: LogAccountPorts) {
    this.#ports = ports
  }

  /** Bytes counted so far (each line's UTF-8 size plus one for its line break). */
  get bytes(): number {
    return this.#bytes
  }

  /** The run's `maxOutputBytes`. */
  get byteLimit(): number {
    return this.#byteLimit
  }

  /** Set the run's limits (from its `run` message). */
  limit(byteLimit: number, lineLimit: number): void {
    this.#byteLimit = byteLimit
    this.#lineLimit = lineLimit
  }

  /**
   * Count and forward one line. Returns the `output-limit` failure message when the line
   * passes a limit (the line is then not forwarded), otherwise `undefined`.
   */
  add(text: string): string | undefined {
    // Every line costs its UTF-8 size plus one byte (its line break), so empty lines count too.
    const size = Buffer.byteLength(text, 'utf8') + 1
    this.#bytes += size
    this.#lines += 1
    if (this.#lines > this.#lineLimit) return `output exceeded maxLogLines (${this.#lineLimit} lines)`
    if (this.#bytes > this.#byteLimit) return `output exceeded maxOutputBytes (${this.#byteLimit} bytes)`
    if (this.#eagerLeft > 0 && this.#batch.length === 0) {
      this.#eagerLeft -= 1
      this.#ports.post({ k: 'log', l: text })
    } else {
      this.#batch.push(text)
      this.#batchBytes += size
      if (this.#batch.length >= LOG_BATCH_LINES || this.#batchBytes >= LOG_BATCH_BYTES) this.flush()
    }
    if (!this.#turnQueued) {
      this.#turnQueued = true
      this.#ports.endOfTurn(() => this.#endTurn())
    }
    return undefined
  }

  /** Post the pending batch, if any (before a call message, and before completion). */
  flush(): void {
    if (this.#batch.length === 0) return
    const lines = this.#batch
    this.#batch = []
    this.#batchBytes = 0
    this.#ports.post({ k: 'logs', l: lines })
  }

  /** The run has ended: a turn that ends later posts nothing. */
  close(): void {
    this.#closed = true
  }

  #endTurn(): void {
    this.#turnQueued = false
    this.#eagerLeft = EAGER_LINES
    if (!this.#closed) this.flush()
  }
}
