/**
 * Collects settled binding calls and sends them to the worker in few messages. When the answer
 * is the last one outstanding (a sequential call, or the end of a `Promise.all`), the batch goes
 * at once, with every answer still held; while other calls are still running it waits for
 * the end of the event-loop turn (`setImmediate`), so calls that settle in one long chain of
 * microtasks — the bridge's pool starting call after call — travel as one message instead of
 * one per pool slot. Each message wakes the worker thread, which competes for the CPU.
 */
import { callFailureOf, encodeCallValue, nonJsonValueMessage } from '@dsh/tools-codemode/runtime-kit'
import { ReplyStatus } from '../protocol/messages'

/** Batches `[id, status, a, b]` reply quadruples; only primitives ever enter a batch. */
export class ReplyBatcher {
  readonly #send: (batch: unknown[]) => void
  readonly #flush = (): void => {
    this.#immediateQueued = false
    const batch = this.#batch
    if (batch.length === 0) return
    this.#batch = []
    this.#send(batch)
  }
  #batch: unknown[] = []
  #outstanding = 0
  #immediateQueued = false

  constructor(send: (batch: unknown[]) => void) {
    this.#send = send
  }

  /** Count a call forwarded to the host; each must later be answered with `value` or `error`. */
  expect(): void {
    this.#outstanding += 1
  }

  /** Queue a successful call: primitives travel as they are, anything else as JSON text. */
  value(id: number, toolName: string, value: unknown): void {
    if (value === null || value === undefined) {
      this.#push(id, ReplyStatus.PRIMITIVE, null, null)
      return
    }
    switch (typeof value) {
      case 'string':
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
        const text = encodeCallValue(value)
        if (text !== undefined) {
          this.#push(id, ReplyStatus.JSON_TEXT, text, null)
          return
        }
        break
      }
    }
    this.#push(id, ReplyStatus.ERROR, toolName, nonJsonValueMessage(toolName))
  }

  /** Queue a failed call, forwarding only the error's `toolName` and `message`. */
  error(id: number, toolName: string, error: unknown): void {
    const failure = callFailureOf(error, toolName)
    this.#push(id, ReplyStatus.ERROR, failure.toolName, failure.message)
  }

  #push(id: number, status: number, a: unknown, b: unknown): void {
    this.#batch.push(id, status, a, b)
    if (this.#outstanding > 0) this.#outstanding -= 1
    if (this.#outstanding === 0) {
      this.#flush()
    } else if (!this.#immediateQueued) {
      this.#immediateQueued = true
      setImmediate(this.#flush)
    }
  }
}
