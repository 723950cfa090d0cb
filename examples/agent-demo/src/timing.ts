/**
 * A metrics wrapper on `tools/execute` — the around-dispatch hook timeouts and retries use —
 * that records when each tool body starts and ends and how many bodies overlap. The loop
 * prints it as a small timeline, which makes the scheduler visible: parallel reads share a
 * row of time, exclusive edits and shell commands stand alone.
 */
import type { Context } from '@deepseek-ai/cordis'

/** One dispatched call. Times are milliseconds since the recorder started. */
export interface CallTiming {
  readonly callId: string
  readonly name: string
  readonly nested: boolean
  readonly start: number
  end: number
}

/** Collects call timings for one run. */
export class TimingRecorder {
  readonly calls: CallTiming[] = []
  private readonly origin = performance.now()
  private active = 0
  /** The most bodies that were running at once. */
  maxConcurrent = 0

  now(): number {
    return performance.now() - this.origin
  }

  /** Wrap every dispatch on `ctx` (ends with its fiber). */
  install(ctx: Context): void {
    ctx.on('tools/execute', async (execution, next) => {
      const timing: CallTiming = {
        callId: execution.callId,
        name: execution.name,
        nested: execution.parent !== undefined,
        start: this.now(),
        end: Number.NaN,
      }
      this.calls.push(timing)
      this.active += 1
      this.maxConcurrent = Math.max(this.maxConcurrent, this.active)
      try {
        return await next()
      } finally {
        this.active -= 1
        timing.end = this.now()
      }
    })
  }

  /** The most calls of `filter` that overlapped in time. */
  maxOverlap(filter: (call: CallTiming) => boolean): number {
    const edges = this.calls
      .filter(filter)
      .flatMap((call) => [
        { at: call.start, delta: 1 },
        { at: call.end, delta: -1 },
      ])
      .sort((a, b) => a.at - b.at || a.delta - b.delta)
    let current = 0
    let best = 0
    for (const edge of edges) {
      current += edge.delta
      best = Math.max(best, current)
    }
    return best
  }
}

/** A text timeline of `calls`, one row each, `width` columns spanning first start to last end. */
export function renderTimeline(calls: readonly CallTiming[], width = 40): string[] {
  if (calls.length === 0) return []
  const from = Math.min(...calls.map((call) => call.start))
  const to = Math.max(...calls.map((call) => call.end))
  const span = Math.max(to - from, 1e-6)
  const label = Math.max(...calls.map((call) => call.callId.length + call.name.length + 1))
  return calls.map((call) => {
    const a = Math.floor(((call.start - from) / span) * (width - 1))
    const b = Math.max(a + 1, Math.ceil(((call.end - from) / span) * (width - 1)))
    const bar = `${' '.repeat(a)}${'█'.repeat(b - a)}`.padEnd(width)
    const id = `${call.callId} ${call.name}`.padEnd(label)
    return `${id} │${bar}│ ${(call.end - call.start).toFixed(1).padStart(7)} ms`
  })
}
