// Property: through the real tool runtime and bridge (in-process TEST DOUBLE runtime), any mix
// of concurrency-safe and exclusive binding calls under Promise.all starts in submission order,
// never overlaps more than maxParallelSubCalls, runs exclusive calls alone, and numbers the
// dispatch ids 1..n by submission.
import { defineTool } from '@dsh/tools-core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createApp, runCode } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

describe('bridge scheduling properties', () => {
  it('submission order, the overlap cap and exclusive barriers hold for any call mix', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ exclusive: fc.boolean(), ticks: fc.integer({ min: 0, max: 3 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (maxParallelSubCalls, calls) => {
          const ctx = await createApp({ runtime: createInProcessRuntime(), maxParallelSubCalls })
          try {
            const running: boolean[] = []
            const started: number[] = []
            let maxActive = 0
            ctx.tools.register(
              defineTool({
                name: 'work',
                description: 'Scheduled work.',
                parameters: {
                  id: { type: 'integer', required: true },
                  exclusive: { type: 'boolean', required: true },
                  ticks: { type: 'integer', required: true },
                },
                output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
                isConcurrencySafe: (args) => !args.exclusive,
                async execute(args) {
                  if (args.exclusive) expect(running).toHaveLength(0)
                  else expect(running.includes(true)).toBe(false)
                  running.push(args.exclusive)
                  started.push(args.id)
                  maxActive = Math.max(maxActive, running.length)
                  for (let i = 0; i < args.ticks; i++) await new Promise((resolve) => setImmediate(resolve))
                  running.splice(running.indexOf(args.exclusive), 1)
                  return args.id
                },
              }),
            )
            const ids: string[] = []
            ctx.on('tool/code-dispatch-start', (event) => ids.push(event.id))
            const program = `return await Promise.all(${JSON.stringify(
              calls.map((call, id) => ({ id, ...call })),
            )}.map((args) => tools.work(args)))`
            const result = await runCode(ctx, program, { callId: 'p' })
            expect(result).toMatchObject({ isError: false, value: { result: calls.map((_, id) => id) } })
            expect(started).toEqual(calls.map((_, id) => id))
            expect(ids).toEqual(calls.map((_, id) => `p:code:${id + 1}`))
            expect(maxActive).toBeLessThanOrEqual(maxParallelSubCalls)
          } finally {
            await ctx.fiber.dispose()
          }
        },
      ),
      { numRuns: 40 },
    )
  })
})
