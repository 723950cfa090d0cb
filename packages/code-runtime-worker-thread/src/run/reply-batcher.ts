/**
 * Collects settled binding calls and sends them to the worker in few messages. When the answer
 * is the last one outstanding (a sequential call, or the end of a `Promise.all`), the batch goes
 * at once, with every answer still held; while other calls are still running it waits for
 * the end of the event-loop turn (`setImmediate`), so calls that settle in one long chain of
 * microtasks — the bridge's pool starting call after call — travel as one message instead of
 * one per pool slot. Each message wakes the worker thread, which competes for the CPU.
 *
 * Large results are the exception: a batch that has reached {@link BATCH_FLUSH_UNITS} goes at
 * once, so a flood of big results reaches the worker as many messages it reads one at a time,
 * never as one huge message; and a single result larger than the program's memory could hold
 * is answered with an error instead of being sent (it could only run the worker out of memory).
 */
import { boundedCallFailure, boundedValueText, nonJsonValueMessage } from '@dsh/tools-codemode/runtime-kit'
import { ReplyStatus } from '../protocol/messages'

/** String units of replies (text and strings) after which a batch is sent without waiting. */
export const BATCH_FLUSH_UNITS = 1 << 20

/** Batches `[id, status, a, b]` reply quadruples; only primitives ever enter a batch. */
export class ReplyBatcher {
  readonly #send: (batch: unknown[]) => void
  readonly #flush = (): void => {
    this.#immediateQueued = false
    const batch = this.#batch
    if (batch.length === 0) return
    this.#batch = []
    this.#batchUnits = 0
    this.#send(batch)
  }
  readonly #maxReplyUnits: number
  #batch: unknown[] = []
  #batchUnits = 0
  #outstanding = 0
  #immediateQueued = false

  /**
   * `send` delivers a batch to the worker; `maxReplyUnits` is the longest result (string
   * length, or JSON text length for objects) the program may receive.
   */
  constructor(send: (batch: unknown[]) => void, maxReplyUnits: number) {
    this.#send = send
    this.#maxReplyUnits = maxReplyUnits
  }

  /** Count a call forwarded to the host; each must later be answered with `value` or `error`. */
  expect(): void {
    this.#outstanding += 1
  }

  /** Calls forwarded to the host and not answered yet. */
  get outstanding(): number {
    return this.#outstanding
  }

  /** Queue a successful call: primitives travel as they are, anything else as JSON text. */
  value(id: number, toolName: string, value: unknown): void {
    if (value === null || value === undefined) {
      this.#push(id, ReplyStatus.PRIMITIVE, null, null)
      return
    }
    switch (typeof value) {
      case 'string':
        if (this.#tooLarge(id, toolName, value)) return
        this.#push(id, ReplyStatus.PRIMITIVE, value, null)
        return
      case 'boolean':
        this.#push(id, ReplyStatus.PRIMITIVE, value, null)
        return
      case 'number':
        if (Number.isFinite(value)) {
          this.#push(id, ReplyStatus.PRIMITIVE, value, null)
          return
        }
        break
      case 'object': {
        // Counted before it is built: a value with shared references can have a JSON text far
        // larger than its memory, and building it would stall and exhaust the host.
        const bounded = boundedValueText(value, this.#maxReplyUnits)
        if (bounded === undefined) break
        if ('size' in bounded) this.#refuseLarge(id, toolName, bounded.size)
        else this.#push(id, ReplyStatus.JSON_TEXT, bounded.text, null)
        return
      }
    }
    this.#push(id, ReplyStatus.ERROR, toolName, nonJsonValueMessage(toolName))
  }

  /**
   * Queue a failed call, forwarding only the error's `toolName` and `message`, each cut to the
   * longest text the program may receive: a tool's error message is as unbounded as its value,
   * and a 100 MB one took the QuickJS worker's capped heap, and with it the host process, down.
   */
  error(id: number, toolName: string, error: unknown): void {
    const failure = boundedCallFailure(error, toolName, this.#maxReplyUnits)
    this.#push(id, ReplyStatus.ERROR, failure.toolName, failure.message)
  }

  /** Answer with an error instead when `text` is longer than the program may receive. */
  #tooLarge(id: number, toolName: string, text: string): boolean {
    if (text.length <= this.#maxReplyUnits) return false
    this.#refuseLarge(id, toolName, String(text.length))
    return true
  }

  #refuseLarge(id: number, toolName: string, size: string): void {
    this.#push(
      id,
      ReplyStatus.ERROR,
      toolName,
      `the result of ${toolName} is too large for the program: ${size} characters, ` +
        `at most ${this.#maxReplyUnits} (a quarter of maxOldGenerationSizeMb)`,
    )
  }

  #push(id: number, status: number, a: unknown, b: unknown): void {
    this.#batch.push(id, status, a, b)
    if (typeof a === 'string') this.#batchUnits += a.length
    if (typeof b === 'string') this.#batchUnits += b.length
    if (this.#outstanding > 0) this.#outstanding -= 1
    if (this.#outstanding === 0 || this.#batchUnits >= BATCH_FLUSH_UNITS) {
      this.#flush()
    } else if (!this.#immediateQueued) {
      this.#immediateQueued = true
      setImmediate(this.#flush)
    }
  }
}
