import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type BusyTimeSource, type LoopUtilization, startBudgetWatchdog } from '../../src/runtime-kit/index'

/** A busy-time source whose active milliseconds the test sets; counts how often it is read. */
function meter() {
  const state = { active: 0, reads: 0 }
  const source: BusyTimeSource = {
    performance: {
      eventLoopUtilization(base?: LoopUtilization): LoopUtilization {
        state.reads += 1
        return { active: state.active - (base?.active ?? 0), idle: 0, utilization: 0 }
      },
    },
  }
  return { source, state }
}

describe('startBudgetWatchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ends a run that waits idle past maxWallMs, once, naming the wall budget', () => {
    const { source } = meter()
    const exceeded: string[] = []
    startBudgetWatchdog(source, { computeMs: 1000, maxWallMs: 5000 }, (message) => exceeded.push(message))
    vi.advanceTimersByTime(4999)
    expect(exceeded).toEqual([])
    vi.advanceTimersByTime(10_000)
    expect(exceeded).toEqual(['the run exceeded maxWallMs (5000 ms)'])
  })

  it('counts busy time only: an idle run outlives computeMs, a busy one does not', () => {
    const { source, state } = meter()
    const exceeded: string[] = []
    startBudgetWatchdog(source, { computeMs: 100, maxWallMs: 100_000 }, (message) => exceeded.push(message))
    vi.advanceTimersByTime(1000)
    expect(exceeded).toEqual([])
    state.active = 100
    vi.advanceTimersByTime(100)
    expect(exceeded).toEqual(['the run exceeded computeMs (100 ms of busy time)'])
    vi.advanceTimersByTime(200_000)
    expect(exceeded).toHaveLength(1)
  })

  it('measures busy time from its start, not from the thread’s birth', () => {
    const { source, state } = meter()
    state.active = 10_000
    const exceeded: string[] = []
    startBudgetWatchdog(source, { computeMs: 50, maxWallMs: 100_000 }, (message) => exceeded.push(message))
    vi.advanceTimersByTime(60)
    expect(exceeded).toEqual([])
  })

  it('checks no sooner than the budget left, so an idle run costs few reads', () => {
    const { source, state } = meter()
    startBudgetWatchdog(source, { computeMs: 1000, maxWallMs: 10_000_000 }, () => {})
    const before = state.reads
    vi.advanceTimersByTime(100_000)
    // One read per computeMs of wall time while idle: 100, not one per millisecond.
    expect(state.reads - before).toBeLessThanOrEqual(101)
  })

  it('fires nothing after stop', () => {
    const { source, state } = meter()
    const exceeded: string[] = []
    const stop = startBudgetWatchdog(source, { computeMs: 10, maxWallMs: 20 }, (m) => exceeded.push(m))
    stop()
    state.active = 1000
    vi.advanceTimersByTime(1000)
    expect(exceeded).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })
})
