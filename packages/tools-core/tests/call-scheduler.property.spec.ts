import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CallScheduler, type ScheduledJob } from '../src/index'

interface Job extends ScheduledJob {
  readonly id: number
}

describe('CallScheduler properties', () => {
  it('starts every job in submission order, never above the cap, exclusive jobs always alone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 200 }),
        (maxParallel, flags, picks) => {
          const started: Job[] = []
          const running: Job[] = []
          const scheduler = new CallScheduler<Job>(maxParallel, (job) => {
            if (job.exclusive) expect(running).toHaveLength(0)
            else expect(running.some((other) => other.exclusive)).toBe(false)
            started.push(job)
            running.push(job)
            expect(running.length).toBeLessThanOrEqual(maxParallel)
            expect(scheduler.active).toBe(running.length)
          })
          const jobs = flags.map((flag, id) => ({ id, exclusive: flag }))
          let submitted = 0
          let step = 0
          // Interleave submissions and completions, driven by the random picks.
          while (submitted < jobs.length || running.length > 0) {
            const pick = picks[step++ % picks.length]!
            if (submitted < jobs.length && (running.length === 0 || pick % 2 === 0)) {
              scheduler.submit(jobs[submitted++]!)
            } else if (running.length > 0) {
              const [job] = running.splice(pick % running.length, 1)
              scheduler.finish(job!)
            }
          }
          expect(started.map((job) => job.id)).toEqual(jobs.map((job) => job.id))
        },
      ),
    )
  })
})
