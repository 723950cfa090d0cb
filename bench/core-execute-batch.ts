// Workload: `ctx.tools.executeBatch` over 1,000 concurrency-safe calls whose bodies each
// await a 1 ms timer, with maxParallel 10, against its floor: the same 1,000 bodies through a
// bare 10-slot promise pool in the same run. The figure that matters is the ratio (target ≤ 1.10):
// absolute times drift with the machine, the ratio does not.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolRunContext } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WORKLOAD = 'execute_batch: 1,000 parallel calls × 1 ms timer, maxParallel 10'
const CALLS = 1_000
const SLOTS = 10
const ROUNDS = 5

/** The body both sides run: a 1 ms timer that an abort would clear. */
function sleep(n: number, signal: AbortSignal): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = () => clearTimeout(timer)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop)
      resolve(n)
    }, 1)
    signal.addEventListener('abort', stop, { once: true })
  })
}

/** The floor: the same bodies through a bare 10-slot promise pool (10 workers pulling the next index). */
async function barePool(signal: AbortSignal): Promise<number> {
  const start = performance.now()
  const results = new Array<number>(CALLS)
  let next = 0
  const worker = async () => {
    while (next < CALLS) {
      const index = next++
      results[index] = await sleep(index, signal)
    }
  }
  await Promise.all(Array.from({ length: SLOTS }, worker))
  return performance.now() - start
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
      execute: (args, exec: ToolRunContext) => sleep(args.n, exec.signal),
    }),
  )
  const signal = new AbortController().signal
  const inputs = Array.from({ length: CALLS }, (_, n) => ({
    callId: `c${n}`,
    name: 'sleep',
    arguments: { n },
    signal,
  }))
  await ctx.tools.executeBatch(inputs.slice(0, 100), { maxParallel: SLOTS }) // warm-up
  await barePool(signal)
  // Alternate floor and batch rounds and keep the best of each, so machine noise hits both alike.
  let batch = Number.POSITIVE_INFINITY
  let floor = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    floor = Math.min(floor, await barePool(signal))
    const start = performance.now()
    const results = await ctx.tools.executeBatch(inputs, { maxParallel: SLOTS })
    batch = Math.min(batch, performance.now() - start)
    if (results.some((result) => result.isError)) throw new Error('a batch call failed')
  }
  return [
    { workload: WORKLOAD, metric: 'total', value: batch, unit: 'ms', note: 'ideal ≈ 100' },
    {
      workload: WORKLOAD,
      metric: 'floor: bare 10-slot promise pool, same bodies',
      value: floor,
      unit: 'ms',
      note: 'same run, no runtime',
    },
    { workload: WORKLOAD, metric: 'ratio to floor', value: batch / floor, unit: '×', note: 'target ≤ 1.10' },
  ]
}
