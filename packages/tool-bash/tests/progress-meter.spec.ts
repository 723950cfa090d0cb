import type { ToolProgressUpdate } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { ProgressMeter } from '../src/progress-meter'

function meter(intervalMs = 250) {
  let clock = 0
  const reports: ToolProgressUpdate[] = []
  const m = new ProgressMeter({ intervalMs, report: (u) => reports.push(u), now: () => clock })
  return {
    push: (text: string) => m.push(Buffer.from(text)),
    advance: (ms: number) => {
      clock += ms
    },
    reports,
  }
}

describe('ProgressMeter', () => {
  it('reports nothing before the first interval has passed', () => {
    const m = meter()
    for (let i = 0; i < 100; i++) m.push('line\n')
    m.advance(249)
    m.push('x')
    expect(m.reports).toEqual([])
  })

  it('reports at most once per interval, with bytes and lines so far', () => {
    const m = meter(100)
    m.push('a\nb\n')
    m.advance(100)
    m.push('c\n')
    m.push('d\n') // same instant: throttled
    m.advance(50)
    m.push('e\n') // half an interval later: throttled
    m.advance(50)
    m.push('ü\n')
    expect(m.reports).toEqual([
      { message: '6 bytes, 3 lines of output so far', progress: 6 },
      { message: '13 bytes, 6 lines of output so far', progress: 13 },
    ])
  })

  it('reports only when output arrives: a silent stretch adds no report', () => {
    const m = meter(10)
    m.advance(1_000)
    expect(m.reports).toEqual([])
    m.push('late')
    expect(m.reports).toEqual([{ message: '4 bytes, 0 lines of output so far', progress: 4 }])
  })

  it('a flood of chunks yields one report per interval, never one per chunk', () => {
    const m = meter(250)
    for (let tick = 0; tick < 40; tick++) {
      for (let i = 0; i < 1_000; i++) m.push('0123456789\n')
      m.advance(25)
    }
    // 40 ticks × 25 ms = 1000 ms → at most 4 reports
    expect(m.reports.length).toBeGreaterThan(0)
    expect(m.reports.length).toBeLessThanOrEqual(4)
    const progress = m.reports.map((r) => r.progress!)
    expect([...progress].sort((a, b) => a - b)).toEqual(progress)
  })
})
