/**
 * The reply slot: a SharedArrayBuffer through which the host hands a QuickJS worker its settled
 * binding calls without a message. The QuickJS worker is synchronous between guest turns, so
 * when the program is only waiting for calls it blocks in `Atomics.wait` on the slot for a short
 * window instead of returning to its event loop: a reply written there resumes the program at
 * once, without a structured clone and without a wake-up of the worker's event loop.
 *
 * Layout: three Int32 words — `written` (sequence of the last batch the host wrote),
 * `consumed` (the last one the worker read), the batch's byte length — then the batch as UTF-8
 * JSON text of the same `[id, status, a, b, …]` array a `res` message carries.
 *
 * The host writes only when the worker has consumed the previous batch and the batch fits;
 * otherwise it posts `res` as before. It never reads anything from the slot but the `consumed`
 * word, which it only compares, so a worker that scribbles on the slot harms only itself.
 * After writing, the host notifies; when no thread was waiting, it posts `{ k: 'wake' }` so the
 * worker's event loop picks the batch up.
 */

const WRITTEN = 0
const CONSUMED = 1
const LENGTH = 2
const HEADER_BYTES = 12

/** Bytes of reply text one slot holds; larger batches travel as `res` messages. */
export const REPLY_SLOT_BYTES = 64 * 1024

/** A fresh, empty slot. */
export function createReplySlot(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + REPLY_SLOT_BYTES)
}

/** What the host does with a batch offered to the slot. */
export type SlotDelivery = 'woken' | 'needs-wake' | 'refused'

/** Host side of a slot (its views are made once per run, not per batch). */
export class ReplySlotWriter {
  readonly #words: Int32Array
  readonly #bytes: Buffer

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 3)
    this.#bytes = Buffer.from(slot, HEADER_BYTES, REPLY_SLOT_BYTES)
  }

  /** Write `batch` if the worker has consumed the last one and it fits. */
  offer(batch: readonly unknown[]): SlotDelivery {
    const words = this.#words
    const written = Atomics.load(words, WRITTEN)
    if (Atomics.load(words, CONSUMED) !== written) return 'refused'
    const text = JSON.stringify(batch)
    // UTF-8 never takes more than 3 bytes per UTF-16 unit: short text needs no exact count.
    if (text.length * 3 > REPLY_SLOT_BYTES && Buffer.byteLength(text, 'utf8') > REPLY_SLOT_BYTES) {
      return 'refused'
    }
    const length = this.#bytes.write(text, 0, 'utf8')
    Atomics.store(words, LENGTH, length)
    // `written` last: the worker reads the length and text only after seeing it change.
    Atomics.store(words, WRITTEN, (written + 1) | 0)
    return Atomics.notify(words, WRITTEN) > 0 ? 'woken' : 'needs-wake'
  }
}

/** Worker side of a slot. */
export class ReplySlotReader {
  readonly #words: Int32Array
  readonly #bytes: Buffer

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 3)
    this.#bytes = Buffer.from(slot, HEADER_BYTES, REPLY_SLOT_BYTES)
  }

  /**
   * The JSON text of the batch written since the last take, if any (marked consumed). The text
   * is not parsed here: the QuickJS kernel parses it (and ignores anything but an array).
   */
  take(): string | undefined {
    const written = Atomics.load(this.#words, WRITTEN)
    if (written === Atomics.load(this.#words, CONSUMED)) return undefined
    const length = Atomics.load(this.#words, LENGTH)
    const text = length >= 0 && length <= REPLY_SLOT_BYTES ? this.#bytes.toString('utf8', 0, length) : '[]'
    Atomics.store(this.#words, CONSUMED, written)
    return text
  }

  /** Block up to `ms` for a batch; true when one is waiting to be taken. */
  wait(ms: number): boolean {
    const consumed = Atomics.load(this.#words, CONSUMED)
    if (Atomics.load(this.#words, WRITTEN) !== consumed) return true
    return Atomics.wait(this.#words, WRITTEN, consumed, ms) !== 'timed-out'
  }
}
