import type { HrTime } from '@opentelemetry/api'

/**
 * The times of one tree of spans (a call and its Code Mode sub-calls), read from one anchor.
 *
 * The OpenTelemetry SDK anchors each span on its own `Date.now()` and measures its duration on
 * the monotonic clock. Two spans started a few milliseconds apart can therefore sit on timelines
 * that differ by however far the wall clock stepped between them (a VM's clock correction, an
 * NTP step) plus `Date.now()`'s millisecond truncation: a sub-call could be exported as ending
 * after its `run_code` parent. One anchor per tree, taken when its root starts, keeps every time
 * in the tree on one monotonic timeline; a new tree takes a new anchor, so a long-lived process
 * does not drift from the wall clock.
 */
export class SpanClock {
  readonly #origin = Date.now() - performance.now()

  /** Now, on this tree's timeline. */
  now(): HrTime {
    const ms = this.#origin + performance.now()
    const seconds = Math.floor(ms / 1000)
    const nanos = Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))
    return [seconds, nanos]
  }
}
