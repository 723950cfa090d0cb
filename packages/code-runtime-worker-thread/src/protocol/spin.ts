/**
 * Busy-polling a shared word for a bounded time before a thread falls back to sleeping on it.
 * A sequential sub-call is a round trip between two threads whose work on each side takes a few
 * microseconds; what dominates an `Atomics.wait` or `Atomics.waitAsync` round trip is waking the
 * sleeping thread (tens of microseconds). A thread that expects the other side to answer within
 * that time polls instead and takes the answer without being woken.
 *
 * Node 20 has no `Atomics.pause`, so the loop is a plain `Atomics.load` loop that reads the clock
 * only every {@link LOADS_PER_CLOCK_READ} loads (a clock read costs far more than a load).
 */

/** Loads between two clock reads: a few hundred nanoseconds, well under any useful window. */
const LOADS_PER_CLOCK_READ = 64

/** How a spin ended: whether the word changed, and the microseconds spent polling. */
export interface SpinResult {
  readonly changed: boolean
  readonly micros: number
}

const UNCHANGED_AT_ONCE: SpinResult = Object.freeze({ changed: false, micros: 0 })
const CHANGED_AT_ONCE: SpinResult = Object.freeze({ changed: true, micros: 0 })

/**
 * Poll `words[index]` until it differs from `value` or `maxMicros` have passed. A window of 0
 * or less only looks once.
 */
export function spinWhileEqual(
  words: Int32Array,
  index: number,
  value: number,
  maxMicros: number,
): SpinResult {
  if (Atomics.load(words, index) !== value) return CHANGED_AT_ONCE
  if (!(maxMicros > 0)) return UNCHANGED_AT_ONCE
  const start = performance.now()
  const deadline = start + maxMicros / 1000
  for (;;) {
    for (let i = 0; i < LOADS_PER_CLOCK_READ; i++) {
      if (Atomics.load(words, index) !== value)
        return { changed: true, micros: (performance.now() - start) * 1000 }
    }
    const now = performance.now()
    if (now >= deadline) return { changed: false, micros: (now - start) * 1000 }
  }
}

/** The longest run of replies an {@link AdaptiveSpin} skips after consecutive misses. */
export const MAX_SPIN_BACKOFF = 64

/** Counters of an {@link AdaptiveSpin}, for tests and monitoring. */
export interface SpinCounts {
  /** Spins that ran (skipped ones are not counted). */
  readonly spins: number
  /** Spins that saw the word change. */
  readonly hits: number
  /** Microseconds spent polling, hits and misses together. */
  readonly micros: number
}

/**
 * A spin window that backs off when spinning does not pay: after a spin that sees nothing, the
 * next 1, 2, 4, … up to {@link MAX_SPIN_BACKOFF} chances to spin only look once, so a peer that
 * answers slowly (a slow tool, a program that computes between calls, or an overloaded machine
 * on which the spinning thread takes the CPU from the one it waits for) costs few wasted spins:
 * at most one per MAX_SPIN_BACKOFF + 1 chances once backed off. A spin that sees the change
 * resets the backoff.
 */
export class AdaptiveSpin {
  readonly #maxMicros: number
  #backoff = 0
  #skip = 0
  #spins = 0
  #hits = 0
  #micros = 0

  constructor(maxMicros: number) {
    this.#maxMicros = maxMicros
  }

  /** Spin on `words[index]` while it equals `value`, unless backing off (then look once). */
  spin(words: Int32Array, index: number, value: number): SpinResult {
    if (this.#maxMicros <= 0 || this.#skip > 0) {
      // Only a spin ends the backoff: a change seen by this one look says little (the looking
      // thread may merely have been descheduled since it wrote), so it is not taken as a sign.
      if (this.#skip > 0) this.#skip -= 1
      return spinWhileEqual(words, index, value, 0)
    }
    const result = spinWhileEqual(words, index, value, this.#maxMicros)
    this.#spins += 1
    this.#micros += result.micros
    if (result.changed) {
      this.#hits += 1
      this.#backoff = 0
    } else {
      this.#backoff = Math.min(MAX_SPIN_BACKOFF, Math.max(1, this.#backoff * 2))
      this.#skip = this.#backoff
    }
    return result
  }

  /** What this spinner has done so far. */
  get counts(): SpinCounts {
    return { spins: this.#spins, hits: this.#hits, micros: this.#micros }
  }
}
