import { describe, expect, it } from 'vitest'
import { CallScheduler, type ScheduledJob } from '../src/index'

interface Job extends ScheduledJob {
  readonly id: number
}

function harness(maxParallel: number) {
  const started: Job[] = []
  const running = new Set<Job>()
  const scheduler = new CallScheduler<Job>(maxParallel, (job) => {
    started.push(job)
    running.add(job)
  })
  const finish = (job: Job) => {
    running.delete(job)
    scheduler.finish(job)
  }
  return { scheduler, started, running, finish }
}

const safe = (id: number): Job => ({ id, exclusive: false })
const exclusive = (id: number): Job => ({ id, exclusive: true })

describe('CallScheduler', () => {
  it('overlaps consecutive safe jobs up to maxParallel, in submission order', () => {
    const { scheduler, started, finish } = harness(2)
    const jobs = [safe(1), safe(2), safe(3)]
    for (const job of jobs) scheduler.submit(job)
    expect(started.map((job) => job.id)).toEqual([1, 2])
    finish(jobs[1]!)
    expect(started.map((job) => job.id)).toEqual([1, 2, 3])
  })

  it('an exclusive job waits for the pool to drain, runs alone and bars later jobs', () => {
    const { scheduler, started, running, finish } = harness(10)
    const jobs = [safe(1), safe(2), exclusive(3), safe(4)]
    for (const job of jobs) scheduler.submit(job)
    expect(started.map((job) => job.id)).toEqual([1, 2])
    finish(jobs[0]!)
    expect(started.map((job) => job.id)).toEqual([1, 2])
    finish(jobs[1]!)
    expect(started.map((job) => job.id)).toEqual([1, 2, 3])
    expect(running.size).toBe(1)
    finish(jobs[2]!)
    expect(started.map((job) => job.id)).toEqual([1, 2, 3, 4])
  })

  it('maxParallel 1 is serial dispatch', () => {
    const { scheduler, started, finish } = harness(1)
    const jobs = [safe(1), safe(2)]
    for (const job of jobs) scheduler.submit(job)
    expect(started).toHaveLength(1)
    finish(jobs[0]!)
    expect(started).toHaveLength(2)
  })

  it('close abandons queued jobs and idle waits for running ones', async () => {
    const { scheduler, started, finish } = harness(1)
    const jobs = [safe(1), safe(2), safe(3)]
    for (const job of jobs) scheduler.submit(job)
    const abandoned = scheduler.close()
    expect(abandoned.map((job) => job.id)).toEqual([2, 3])
    let idle = false
    const waiting = scheduler.idle().then(() => {
      idle = true
    })
    await Promise.resolve()
    expect(idle).toBe(false)
    finish(jobs[0]!)
    await waiting
    expect(idle).toBe(true)
    expect(started.map((job) => job.id)).toEqual([1])
    expect(() => scheduler.submit(safe(4))).toThrow(/closed/)
  })
})

describe('CallScheduler configuration', () => {
  it('refuses a maxParallel that is not an integer ≥ 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new CallScheduler(bad, () => {})).toThrow(RangeError)
    }
  })

  it('idle resolves once running jobs end, also while the scheduler stays open', async () => {
    const { scheduler, finish } = harness(2)
    const jobs = [safe(1), safe(2)]
    for (const job of jobs) scheduler.submit(job)
    let idle = 0
    const waiting = scheduler.idle().then(() => idle++)
    finish(jobs[0]!)
    await Promise.resolve()
    expect(idle).toBe(0)
    finish(jobs[1]!)
    await waiting
    expect(idle).toBe(1)
    scheduler.submit(safe(3))
    expect(scheduler.active).toBe(1)
  })

  it('wouldStart tells a job that would queue from one that starts at once', () => {
    const { scheduler } = harness(1)
    expect(scheduler.wouldStart(exclusive(1))).toBe(true)
    scheduler.submit(safe(1))
    expect(scheduler.wouldStart(safe(2))).toBe(false)
    expect(scheduler.wouldStart(exclusive(2))).toBe(false)
  })
})
