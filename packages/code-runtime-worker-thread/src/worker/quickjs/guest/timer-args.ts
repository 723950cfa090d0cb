/**
 * The argument rules of `setTimeout`/`setInterval`, the same in both engines' kernels: the
 * callback must be a function (Node's wording), and a delay that is not a number of at least
 * 1 ms, or that exceeds a timer's 32-bit range, becomes 1 ms (as in Node). Also the records
 * both kernels keep for a timer and for a binding call awaiting its reply.
 */
import { intrinsics as I } from './intrinsics'

/** Throw Node's `TypeError` unless `callback` is a function. */
export function checkTimerCallback(callback: unknown): void {
  if (typeof callback !== 'function') {
    throw new I.TypeError('The "callback" argument must be of type function')
  }
}

/** The delay a timer fires after, in ms (1 to 2147483647). */
export function timerDelay(delay: unknown): number {
  const ms = +(delay as number)
  return !(ms >= 1) || ms > 2147483647 ? 1 : ms
}

/** A scheduled timer as both kernels keep it until it fires or is cleared. */
export interface Timer {
  readonly callback: (...args: unknown[]) => unknown
  readonly rest: unknown[]
  readonly repeat: boolean
}

/** The settle functions of a binding call's promise, kept until the host replies. */
export interface Pending {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}
