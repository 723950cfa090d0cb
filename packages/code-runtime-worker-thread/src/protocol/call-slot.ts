/**
 * The call slot: a SharedArrayBuffer through which a QuickJS worker hands the host its binding
 * calls without a message — the other half of the reply slot (`reply-slot.ts`). The worker
 * writes a batch of calls and `Atomics.notify`s; the host, which keeps an `Atomics.waitAsync`
 * armed on the slot while a run is live, takes it in its next event-loop turn. No structured
 * clone and no MessagePort on either side: a sequential call is one notify each way.
 *
 * Layout: four Int32 words — `written` (sequence of the last batch the worker wrote), the
 * batch's byte length, `accepted` (the id of the last call the host accepted, by either path),
 * `after` (how many messages the worker had posted in this run when it wrote the batch) — then
 * the batch as UTF-8 text in the call-batch format (`call-batch.ts`), then one more Int32 word,
 * `spinning` (1 from the host's {@link CallSlotReader.spin} until its `endSpin`: the worker
 * then skips its notify).
 *
 * Ordering: a batch that does not fit, or that the worker writes while the host has not yet
 * accepted every earlier call, travels as a `calls-json` message instead. The worker writes the
 * slot only when `accepted` is the id just before the batch, so the slot never holds a batch
 * that overtakes one still in flight as a message; and the host takes the slot before it reads
 * any message's calls, so a message never overtakes the slot. Nor may a batch overtake the
 * worker's other messages (a log line printed before a call must reach the host first): the host
 * holds a batch back until it has received the `after` messages posted before it. Call ids stay
 * in sequence either way, which the host checks regardless (`parse-worker-message.ts`).
 *
 * The host treats the slot as hostile input: it reads the length and the text once each,
 * bounds-checks the length, and parses and validates the text like a message.
 */

import type { AdaptiveSpin, SpinResult } from './spin'

const WRITTEN = 0
const LENGTH = 1
const ACCEPTED = 2
const AFTER = 3
const HEADER_BYTES = 16

/** Bytes of call text one slot holds; larger batches travel as `calls-json` messages. */
export const CALL_SLOT_BYTES = 64 * 1024

/** The `spinning` word, after the text. */
function spinningWord(slot: SharedArrayBuffer): Int32Array {
  return new Int32Array(slot, HEADER_BYTES + CALL_SLOT_BYTES, 1)
}

/** A fresh, empty slot. */
export function createCallSlot(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + CALL_SLOT_BYTES + 4)
}

/** `Atomics.waitAsync` (ES2024; the package compiles against ES2023's lib). */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> }
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync

/** Worker side: offers call batches to the host. */
export class CallSlotWriter {
  readonly #words: Int32Array
  readonly #spinning: Int32Array
  readonly #bytes: Buffer

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 4)
    this.#spinning = spinningWord(slot)
    this.#bytes = Buffer.from(slot, HEADER_BYTES, CALL_SLOT_BYTES)
  }

  /**
   * Write `text` (a batch whose first call has id `firstId`, written after the worker posted
   * `after` messages in this run) and wake the host, if the host has accepted every earlier call
   * and the text fits; false when it must travel as a message.
   */
  offer(text: string, firstId: number, after: number): boolean {
    if (Atomics.load(this.#words, ACCEPTED) !== firstId - 1) return false
    // UTF-8 never takes more than 3 bytes per UTF-16 unit: short text needs no exact count.
    if (text.length * 3 > CALL_SLOT_BYTES && Buffer.byteLength(text, 'utf8') > CALL_SLOT_BYTES) return false
    const length = this.#bytes.write(text, 0, 'utf8')
    Atomics.store(this.#words, LENGTH, length)
    Atomics.store(this.#words, AFTER, after)
    // `written` last: the host reads the length and text only after seeing it change.
    Atomics.store(this.#words, WRITTEN, (Atomics.load(this.#words, WRITTEN) + 1) | 0)
    // A polling host sees `written` before it stops (it clears `spinning`, then looks again).
    if (Atomics.load(this.#spinning, 0) !== 1) Atomics.notify(this.#words, WRITTEN)
    return true
  }
}

/** A batch taken from the slot: its text, and how many of the worker's messages precede it. */
export interface CallSlotBatch {
  readonly text: string
  readonly after: number
}

/** Host side: takes call batches, and tells the worker which calls it has accepted. */
export class CallSlotReader {
  readonly #words: Int32Array
  readonly #spinning: Int32Array
  readonly #bytes: Buffer
  #seen = 0
  #watching = false

  constructor(slot: SharedArrayBuffer) {
    this.#words = new Int32Array(slot, 0, 4)
    this.#spinning = spinningWord(slot)
    this.#bytes = Buffer.from(slot, HEADER_BYTES, CALL_SLOT_BYTES)
    this.#seen = Atomics.load(this.#words, WRITTEN)
  }

  /**
   * The batch written since the last take, if any. A length outside the slot (only a
   * misbehaving worker writes one) reads as text no batch parser accepts.
   */
  take(): CallSlotBatch | undefined {
    const written = Atomics.load(this.#words, WRITTEN)
    if (written === this.#seen) return undefined
    this.#seen = written
    const length = Atomics.load(this.#words, LENGTH)
    const text = length >= 0 && length <= CALL_SLOT_BYTES ? this.#bytes.toString('utf8', 0, length) : ''
    return { text, after: Atomics.load(this.#words, AFTER) }
  }

  /**
   * Poll the slot for a batch not taken yet, for up to `spinner`'s window, on the host's main
   * thread; `changed` when one is waiting to be taken. The slot stays marked as polled — the
   * worker skips its notify meanwhile, so a batch caught here costs the host no event-loop wake —
   * until {@link endSpin}, which the caller must call once it has taken what it caught.
   */
  spin(spinner: AdaptiveSpin): SpinResult {
    Atomics.store(this.#spinning, 0, 1)
    return spinner.spin(this.#words, WRITTEN, this.#seen)
  }

  /**
   * End a {@link spin}: true when a batch is waiting to be taken — one whose writer saw the slot
   * still polled and skipped its notify, so nothing else will announce it.
   */
  endSpin(): boolean {
    Atomics.store(this.#spinning, 0, 0)
    // Cleared before this look: a worker that still saw it set wrote before the look.
    return Atomics.load(this.#words, WRITTEN) !== this.#seen
  }

  /** Record that every call up to `lastId` was accepted: the worker may use the slot again. */
  accept(lastId: number): void {
    Atomics.store(this.#words, ACCEPTED, lastId)
  }

  /**
   * Call `onWritten` from the host's event loop whenever the worker has written a batch not
   * taken yet (the callback takes it, now or later), until the returned stop function is called
   * (which also releases the pending wait). One watch at a time.
   */
  watch(onWritten: () => void): () => void {
    if (this.#watching) throw new Error('the call slot is already watched')
    this.#watching = true
    let stopped = false
    const arm = (): void => {
      while (!stopped) {
        const seen = this.#seen
        const wait = waitAsync(this.#words, WRITTEN, seen)
        if (wait.async) {
          void wait.value.then(onWake)
          return
        }
        onWritten()
        // Not taken: the callback is done with the slot for now; a later message takes it.
        if (this.#seen === seen) return
      }
    }
    const onWake = (): void => {
      if (stopped) return
      onWritten()
      arm()
    }
    arm()
    return () => {
      if (stopped) return
      stopped = true
      this.#watching = false
      // Resolve the pending wait now rather than leaving it armed on an abandoned slot.
      Atomics.notify(this.#words, WRITTEN)
    }
  }
}
