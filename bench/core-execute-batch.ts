// Workload: `ctx.tools.executeBatch` over 1,000 concurrency-safe calls whose bodies each
// await a 1 ms timer, with maxParallel 10. The ideal is about 100 ms (100 waves of 10).
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WORKLOAD = 'execute_batch: 1,000 parallel calls × 1 ms timer, maxParallel 10'

/** The same 1,000 × 1 ms timers through a minimal 10-slot rolling pool, without the runtime. */
async function timerBaseline(): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < 3; round++) {
    const start = performance.now()
    let running = 0
    let started = 0
    await new Promise<void>((done) => {
      const fill = () => {
        while (running < 10 && started < 1_000) {
          started++
          running++
          setTimeout(() => {
            running--
            if (started === 1_000 && running === 0) done()
            else fill()
          }, 1)
        }
      }
      fill()
    })
    best = Math.min(best, performance.now() - start)
  }
  return best
}

export default async function run(): Promise<BenchRow[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  ctx.tools.register(
    defineTool({
      name: 'sleep',
      description: 'Wait one millisecond.',
      parameters: { n: { type: 'integer', required: true } },
      output: {
        schema: { type: 'integer' },
        render: (_args, value) => [{ type: 'text', text: String(value) }],
      },
      isConcurrencySafe: () => true,
      execute: (args, exec) =>
        new Promise<number>((resolve) => {
          const stop = () => clearTimeout(timer)
          const timer = setTimeout(() => {
            exec.signal.removeEventListener('abort', stop)
            resolve(args.n)
          }, 1)
          exec.signal.addEventListener('abort', stop, { once: true })
        }),
    }),
  )
  const signal = new AbortController().signal
  const inputs = Array.from({ length: 1_000 }, (_, n) => ({
    callId: `c${n}`,
    name: 'sleep',
    arguments: { n },
    signal,
  }))
  await ctx.tools.executeBatch(inputs.slice(0, 100), { maxParallel: 10 }) // warm-up
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < 3; round++) {
    const start = performance.now()
    const results = await ctx.tools.executeBatch(inputs, { maxParallel: 10 })
    best = Math.min(best, performance.now() - start)
    if (results.some((result) => result.isError)) throw new Error('a batch call failed')
  }
  return [
    { workload: WORKLOAD, metric: 'total', value: best, unit: 'ms', note: 'ideal ≈ 100, target < 130' },
    {
      workload: WORKLOAD,
      metric: 'baseline: bare rolling pool of 1 ms timers',
      value: await timerBaseline(),
      unit: 'ms',
      note: 'same machine, no runtime: the timer floor',
    },
  ]
}
