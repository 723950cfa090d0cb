import { linkSignals } from '@dsh/tools-core'

/**
 * A one-shot deadline fused with a caller's signal. The deadline counts as expired only if its
 * timer fired while the caller's signal was still live: a caller abort first disarms it, so a
 * cancellation is never reported as a timeout.
 */
export interface Deadline {
  /** The caller's signal fused with the deadline; aborts on whichever comes first. */
  readonly signal: AbortSignal
  /** Whether the deadline itself fired (before any caller abort). */
  readonly expired: boolean
  /** Stop the timer and detach from the caller's signal. Idempotent. */
  dispose(): void
}

/**
 * Start a deadline of `ms` milliseconds over `callerSignal`. On expiry the fused signal aborts
 * with `reason()` as its reason.
 *
 * No listener of its own goes on `callerSignal` (many concurrent calls share it): the timer
 * checks the caller's state when it fires, and the fused signal follows the caller through
 * `linkSignals`, which keeps at most one listener per source for all its followers.
 *
 * @param callerSignal — the signal the deadline is fused with.
 * @param ms — the budget in milliseconds.
 * @param reason — builds the abort reason when the deadline fires.
 */
export function startDeadline(callerSignal: AbortSignal, ms: number, reason: () => unknown): Deadline {
  const controller = new AbortController()
  let expired = false
  const timer = setTimeout(() => {
    if (callerSignal.aborted) return
    expired = true
    controller.abort(reason())
  }, ms)
  const fused = linkSignals(callerSignal, controller.signal)
  return {
    signal: fused.signal,
    get expired() {
      return expired
    },
    dispose() {
      clearTimeout(timer)
      fused.dispose()
    },
  }
}
