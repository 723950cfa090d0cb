/**
 * The reply slot: a SharedArrayBuffer through which the host hands a QuickJS worker its settled
 * binding calls without a message. The QuickJS worker is synchronous between guest turns, so
 * when the program is only waiting for calls it blocks in `Atomics.wait` on the slot for a short
 * window instead of returning to its event loop: a reply written there resumes the program at
 * once, without a structured clone and without a wake-up of the worker's event loop.
 *
 * Before blocking, the worker spins on the slot for a few microseconds (`spin.ts`): a host that
 * answers at once (a quick tool) is seen without the cost of waking a sleeping thread. The host
 * sets the spin window when it creates the slot.
 *
 * Layout: three Int32 words — `written` (sequence of the last batch the host wrote),
 * `consumed` (the last one the worker read), the batch's byte length — then the batch as UTF-8
 * JSON text of the same `[id, status, a, b, …]` array a `res` message carries, then two more
 * Int32 words: `looking` and the worker's spin window in µs.
 *
 * The host writes only when the worker has consumed the previous batch and the batch fits;
 * otherwise it posts `res` as before. After writing, it wakes the worker only if the worker
 * might not look at the slot again by itself: not while `looking` is set — while the worker
 * spins, and from a `take` that returned a batch until its next `take` (the worker settles the
 * batch and then always takes again, so a reply written meanwhile is found then). Otherwise it
 * notifies, and when no thread was blocked it posts `{ k: 'wake' }` so the worker's event loop
 * picks the batch up. The worker clears `looking` before each last look at `written`, and the
 * host sets `written` before it reads `looking`, so one of the two always sees the other.
 *
 * The host never reads anything from the slot but the `consumed` and `looking` words, which it
 * only compares, so a worker that scribbles on the slot harms only itself.
 */

import { AdaptiveSpin, type SpinCounts } from './spin'

const WRITTEN = 0
const CONSUMED = 1
const LENGTH = 2
const HEADER_BYTES = 12
// The words after the text.
const LOOKING = 0
const SPIN_MICROS = 1

/** The longest spin window a slot may ask of its worker, in microseconds. */
export const MAX_SPIN_MICROS = 1_000

/** Bytes of reply text one slot holds; larger batches travel as `res` messages. */
export const REPLY_SLOT_BYTES = 64 * 1024

/**
 * A fresh, empty slot whose worker spins up to `spinMicros` (clamped to 0 – {@link MAX_SPIN_MICROS})
 * before blocking; 0 (the default) never spins.
 */
export function createReplySlot(spinMicros = 0): SharedArrayBuffer {
  const slot = new SharedArrayBuffer(HEADER_BYTES + REPLY_SLOT_BYTES + 8)
  tailWords(slot)[SPIN_MICROS] = clampSpin(spinMicros)
  return slot
}

function tailWords(slot: SharedArrayBuffer): Int32Array {
  return new Int32Array(slot, HEADER_BYTES + REPLY_SLOT_BYTES, 2)
}

function clampSpin(micros: number): number {
  return Number.isFinite(micros) ? Math.max(0, Math.min(MAX_SPIN_MICROS, Math.floor(micros))) : 0
}

/** What the host does with a batch offered to the slot. */
export type SlotDelivery = 'woken' | 'needs-wake' | 'refused'

/** Host side of a slot (its views are made once per run, not per batch). */
export class ReplySlotWriter {
  readonly #words: Int32Array
  readonly #tail: Int32Array
  readonly #bytes: Buffer

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 3)
    this.#tail = tailWords(slot)
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
    // A worker that is looking sees `written` before it sleeps: it clears `looking` and then
    // reads `written` once more (ReplySlotReader.take and .wait), so it needs no wake-up.
    if (Atomics.load(this.#tail, LOOKING) === 1) return 'woken'
    return Atomics.notify(words, WRITTEN) > 0 ? 'woken' : 'needs-wake'
  }
}

/** Worker side of a slot. */
export class ReplySlotReader {
  readonly #words: Int32Array
  readonly #tail: Int32Array
  readonly #bytes: Buffer
  readonly #spin: AdaptiveSpin

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 3)
    this.#tail = tailWords(slot)
    this.#bytes = Buffer.from(slot, HEADER_BYTES, REPLY_SLOT_BYTES)
    this.#spin = new AdaptiveSpin(clampSpin(Atomics.load(this.#tail, SPIN_MICROS)))
  }

  /** What the reader's spinning before blocking has done so far. */
  get spinCounts(): SpinCounts {
    return this.#spin.counts
  }

  /**
   * The JSON text of the batch written since the last take, if any (marked consumed). The text
   * is not parsed here: the QuickJS kernel parses it (and ignores anything but an array).
   *
   * Contract: after a take that returned a batch, the worker calls `take` again before it blocks
   * or returns to its event loop (the host relies on that and sends no wake-up meanwhile); a take
   * that returns nothing ends that promise.
   */
  take(): string | undefined {
    // Cleared before the look, so a host that still saw it set wrote before this look.
    Atomics.store(this.#tail, LOOKING, 0)
    const written = Atomics.load(this.#words, WRITTEN)
    if (written === Atomics.load(this.#words, CONSUMED)) return undefined
    Atomics.store(this.#tail, LOOKING, 1)
    const length = Atomics.load(this.#words, LENGTH)
    const text = length >= 0 && length <= REPLY_SLOT_BYTES ? this.#bytes.toString('utf8', 0, length) : '[]'
    Atomics.store(this.#words, CONSUMED, written)
    return text
  }

  /**
   * Wait up to `ms` for a batch — spinning first for the slot's window (less after spins that
   * caught nothing), then blocking; true when one is waiting to be taken. The caller's clock
   * around this call counts the spin too: spinning is busy time like blocking.
   */
  wait(ms: number): boolean {
    const words = this.#words
    const consumed = Atomics.load(words, CONSUMED)
    if (Atomics.load(words, WRITTEN) !== consumed) return true
    let left = ms
    if (ms > 0) {
      Atomics.store(this.#tail, LOOKING, 1)
      const spun = this.#spin.spin(words, WRITTEN, consumed)
      // Cleared before the final check below, so a host that saw it set wrote before that check.
      Atomics.store(this.#tail, LOOKING, 0)
      if (spun.changed) return true
      left = Math.max(0, ms - spun.micros / 1000)
    }
    return Atomics.wait(words, WRITTEN, consumed, left) !== 'timed-out'
  }
}
