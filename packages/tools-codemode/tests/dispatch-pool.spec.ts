import { describe, expect, it } from 'vitest'
import { type DispatchJob, DispatchPool } from '../src/dispatch-pool'

interface Job extends DispatchJob {
  readonly id: number
}

function harness(maxParallel: number) {
  const started: Job[] = []
  const running = new Set<Job>()
  const pool = new DispatchPool<Job>(maxParallel, (job) => {
    started.push(job)
    running.add(job)
  })
  const finish = (job: Job) => {
    running.delete(job)
    pool.finish(job)
  }
  return { pool, started, running, finish }
}

const safe = (id: number): Job => ({ id, exclusive: false })
const exclusive = (id: number): Job => ({ id, exclusive: true })

describe('DispatchPool', () => {
  it('overlaps consecutive safe jobs up to maxParallel, in submission order', () => {
    const { pool, started, finish } = harness(2)
    const jobs = [safe(1), safe(2), safe(3)]
    for (const job of jobs) pool.submit(job)
    expect(started.map((job) => job.id)).toEqual([1, 2])
    finish(jobs[1]!)
    expect(started.map((job) => job.id)).toEqual([1, 2, 3])
  })

  it('an exclusive job waits for the pool to drain, runs alone and bars later jobs', () => {
    const { pool, started, running, finish } = harness(10)
    const jobs = [safe(1), safe(2), exclusive(3), safe(4)]
    for (const job of jobs) pool.submit(job)
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
    const { pool, started, finish } = harness(1)
    const jobs = [safe(1), safe(2)]
    for (const job of jobs) pool.submit(job)
    expect(started).toHaveLength(1)
    finish(jobs[0]!)
    expect(started).toHaveLength(2)
  })

  it('close abandons queued jobs and idle waits for running ones', async () => {
    const { pool, started, finish } = harness(1)
    const jobs = [safe(1), safe(2), safe(3)]
    for (const job of jobs) pool.submit(job)
    const abandoned = pool.close()
    expect(abandoned.map((job) => job.id)).toEqual([2, 3])
    let idle = false
    const waiting = pool.idle().then(() => {
      idle = true
    })
    await Promise.resolve()
    expect(idle).toBe(false)
    finish(jobs[0]!)
    await waiting
    expect(idle).toBe(true)
    expect(started.map((job) => job.id)).toEqual([1])
    expect(() => pool.submit(safe(4))).toThrow(/closed/)
  })
})
