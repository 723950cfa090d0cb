import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { job, OverlapProbe, registerJob } from './fixtures/batch'
import { createRuntime } from './fixtures/runtime'

describe('executeBatch (property)', () => {
  it('observed body overlap never crosses an exclusive barrier and never exceeds maxParallel', async () => {
    const ctx = await createRuntime()
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ parallel: fc.boolean(), ticks: fc.integer({ min: 0, max: 4 }) }), {
          maxLength: 14,
        }),
        fc.integer({ min: 1, max: 4 }),
        async (calls, maxParallel) => {
          const probe = new OverlapProbe()
          const dispose = registerJob(ctx, probe)
          try {
            const inputs = calls.map((c, id) => job(id, c.parallel, c.ticks))
            const results = await ctx.tools.executeBatch(inputs, { maxParallel })
            expect(results.map((r) => r.isError === false && r.value)).toEqual(calls.map((_, id) => id))
            expect(probe.peak).toBeLessThanOrEqual(maxParallel)
            for (let id = 0; id < calls.length; id++) {
              const overlapping = probe.overlaps.get(id)!
              if (!calls[id]!.parallel) expect(overlapping.size).toBe(0)
              for (const other of overlapping) {
                // no exclusive call sits between two overlapping bodies in model order
                const [lo, hi] = id < other ? [id, other] : [other, id]
                for (let between = lo; between <= hi; between++) expect(calls[between]!.parallel).toBe(true)
              }
            }
          } finally {
            dispose()
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
