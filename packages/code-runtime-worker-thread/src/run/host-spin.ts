/**
 * When the host may spin on a run's call slot after answering it (`CallSlotReader.spin`). A
 * sequential program answers a reply with its next call within microseconds; catching that call
 * by polling saves the host's event-loop wake-up, which is most of a sub-call's cost. But the
 * poll runs on the host's main thread, which everything else in the process shares, so it is
 * fenced on every side:
 *
 * - per reply: at most `hostSpinMicros`, and only when the run has no call outstanding (its
 *   next move can only be a call, a log line or its end);
 * - per run: backs off after spins that catch nothing (`AdaptiveSpin`), and never spins more
 *   than {@link RUN_SPIN_SHARE} of the run's wall time (plus a small start allowance);
 * - per process: only while exactly one run is live (with more, the others' messages wait while
 *   the host polls), and at most {@link TURN_SPIN_CATCHES} caught calls per event-loop turn — a
 *   caught call is dispatched in the same chain of microtasks, so without this cap a fast
 *   program could keep the host from ever reaching its timers and I/O.
 */
import type { CallSlotReader } from '../protocol/call-slot'
import { AdaptiveSpin } from '../protocol/spin'

/** The share of a run's wall time its host-side spins may take. */
export const RUN_SPIN_SHARE = 0.25
/** Spin time every run may use before {@link RUN_SPIN_SHARE} applies, in microseconds. */
export const RUN_SPIN_ALLOWANCE_MICROS = 2_000
/** Calls caught by spinning in one event-loop turn, across runs, before the host yields. */
export const TURN_SPIN_CATCHES = 32

/** Live runs that may spin (the process has one main thread, so this is process-wide). */
let liveRuns = 0
let turnCatches = 0
let turnResetQueued = false
const resetTurn = (): void => {
  turnResetQueued = false
  turnCatches = 0
}

/** Host-side spin counters of a runtime, summed over its runs. */
export interface HostSpinMeter {
  /** Spins that ran. */
  spins: number
  /** Spins that caught a call. */
  hits: number
  /** Microseconds the host's main thread spent spinning. */
  micros: number
}

/** A fresh meter at zero. */
export function createHostSpinMeter(): HostSpinMeter {
  return { spins: 0, hits: 0, micros: 0 }
}

/** One run's spinning: call {@link HostSpin.end} when the run settles. */
export class HostSpin {
  readonly #spinner: AdaptiveSpin
  readonly #meter: HostSpinMeter
  readonly #start = performance.now()
  #micros = 0
  #ended = false

  constructor(maxMicros: number, meter: HostSpinMeter) {
    this.#spinner = new AdaptiveSpin(maxMicros)
    this.#meter = meter
    liveRuns += 1
  }

  /** The run settled: it no longer counts as live. Idempotent. */
  end(): void {
    if (this.#ended) return
    this.#ended = true
    liveRuns -= 1
  }

  /** Whether the fences above allow a spin now (the caller checks the run's own state). */
  allowed(): boolean {
    if (this.#ended || liveRuns !== 1 || turnCatches >= TURN_SPIN_CATCHES) return false
    const elapsedMicros = (performance.now() - this.#start) * 1000
    return this.#micros <= RUN_SPIN_ALLOWANCE_MICROS + elapsedMicros * RUN_SPIN_SHARE
  }

  /**
   * Spin on `slot` if allowed, and call `take` for what arrives: a batch caught while spinning,
   * and one written before the spin ended (see `CallSlotReader.endSpin`).
   */
  spinAndTake(slot: CallSlotReader, take: () => void): void {
    if (!this.allowed()) return
    const before = this.#spinner.counts
    const result = slot.spin(this.#spinner)
    const after = this.#spinner.counts
    this.#micros += result.micros
    this.#meter.spins += after.spins - before.spins
    this.#meter.hits += after.hits - before.hits
    this.#meter.micros += result.micros
    let caught = result.changed
    try {
      if (result.changed) take()
    } finally {
      // Ended only after taking, so the worker skips its notify for the call just caught.
      if (slot.endSpin()) {
        caught = true
        take()
      }
    }
    if (caught) {
      turnCatches += 1
      if (!turnResetQueued) {
        turnResetQueued = true
        setImmediate(resetTurn)
      }
    }
  }
}
