// Property: through the real tool runtime and bridge (in-process TEST DOUBLE runtime), for any
// limits and any burst of calls fired without await, the admitted calls are exactly those the
// limits allow: outstanding calls never exceed maxOutstandingSubCalls, queued argument bytes
// never exceed maxQueuedArgumentBytes, at most maxSubCallsPerRun calls reach policy, and every
// refused call names its limit.
import { defineTool } from '@dsh/tools-core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createApp, runCode } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

const LIMIT_NAMES = /`(maxSubCallsPerRun|maxOutstandingSubCalls|maxQueuedArgumentBytes)`/

describe('bridge limit properties', () => {
  it('admission matches a model of the three per-run limits for any burst', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          maxParallelSubCalls: fc.integer({ min: 1, max: 3 }),
          maxSubCallsPerRun: fc.integer({ min: 1, max: 12 }),
          maxOutstandingSubCalls: fc.integer({ min: 1, max: 8 }),
          maxQueuedArgumentBytes: fc.integer({ min: 1, max: 400 }),
        }),
        fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 1, maxLength: 14 }),
        async (limits, sizes) => {
          const ctx = await createApp({ runtime: createInProcessRuntime(), config: limits })
          try {
            let policy = 0
            ctx.on('tools/pre-execute', (exec, next) => {
              if (exec.name !== 'run_code') policy++
              return next()
            })
            ctx.tools.register(
              defineTool({
                name: 'work',
                description: 'Finishes on a later tick.',
                parameters: { text: { type: 'string', required: true } },
                output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
                isConcurrencySafe: () => true,
                async execute(args) {
                  await new Promise((r) => setTimeout(r, 0))
                  return args.text.length
                },
              }),
            )
            // Model: every call fired synchronously, so nothing settles during the burst.
            const expected: string[] = []
            let outstanding = 0
            let queuedBytes = 0
            for (let i = 0; i < sizes.length; i++) {
              const bytes = sizes[i]! + 4 + 2 // code units + key "text" + two JSON values
              if (i + 1 > limits.maxSubCallsPerRun) expected.push('maxSubCallsPerRun')
              else if (outstanding >= limits.maxOutstandingSubCalls) expected.push('maxOutstandingSubCalls')
              else if (
                outstanding >= limits.maxParallelSubCalls &&
                queuedBytes + bytes > limits.maxQueuedArgumentBytes
              )
                expected.push('maxQueuedArgumentBytes')
              else {
                if (outstanding >= limits.maxParallelSubCalls) queuedBytes += bytes
                outstanding++
                expected.push('ok')
              }
            }
            const run = await runCode(
              ctx,
              `const sizes = ${JSON.stringify(sizes)}
               const settled = await Promise.allSettled(sizes.map((n) => tools.work({ text: 'x'.repeat(n) })))
               return settled.map((s) => s.status === 'fulfilled' ? 'ok' : s.reason.message)`,
            )
            expect(run.isError).toBe(false)
            const outcomes = (run as unknown as { value: { result: string[] } }).value.result
            const named = outcomes.map((o) => (o === 'ok' ? 'ok' : (LIMIT_NAMES.exec(o)?.[1] ?? o)))
            expect(named).toEqual(expected)
            expect(policy).toBe(expected.filter((e) => e === 'ok').length)
          } finally {
            await ctx.fiber.dispose()
          }
        },
      ),
      { seed: Number(process.env.FC_SEED ?? 20261201), numRuns: Number(process.env.FC_RUNS ?? 60) },
    )
  })
})
