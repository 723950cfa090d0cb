// Workload: one trivial tool, 20,000 sequential `ctx.tools.execute` calls through the full
// pipeline — bare, and with 4 pass-through listeners on each of tools/pre-execute,
// tools/execute and tools/post-execute (12 listeners). Reports µs per call and the marginal
// cost per listener.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WORKLOAD = 'native_execute: trivial tool, 20,000 sequential calls'
const CALLS = 20_000

async function measure(ctx: Context, calls: number): Promise<number> {
  const tools = ctx.tools
  const signal = new AbortController().signal
  const input = { callId: 'bench', name: 'echo', arguments: { text: 'hi' }, signal }
  const start = performance.now()
  for (let i = 0; i < calls; i++) {
    const result = await tools.execute(input)
    if (result.isError) throw new Error(result.error.message)
  }
  return ((performance.now() - start) * 1000) / calls
}

function passThrough(ctx: Context): () => void {
  const disposers: (() => boolean)[] = []
  for (let i = 0; i < 4; i++) {
    disposers.push(ctx.on('tools/pre-execute', (_execution, next) => next()))
    disposers.push(ctx.on('tools/execute', (_execution, next) => next()))
    disposers.push(ctx.on('tools/post-execute', (_execution, _result, next) => next()))
  }
  return () => {
    for (const dispose of disposers) dispose()
  }
}

export default async function run(): Promise<BenchRow[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  ctx.tools.register(
    defineTool({
      name: 'echo',
      description: 'Echo text.',
      parameters: { text: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: (args) => args.text,
    }),
  )
  // Alternate bare and listened rounds and keep the best of each, so machine noise (other
  // processes, GC) affects both figures alike.
  await measure(ctx, 5_000)
  let bare = Number.POSITIVE_INFINITY
  let listened = Number.POSITIVE_INFINITY
  for (let round = 0; round < 5; round++) {
    bare = Math.min(bare, await measure(ctx, CALLS))
    const remove = passThrough(ctx)
    if (round === 0) await measure(ctx, 5_000)
    listened = Math.min(listened, await measure(ctx, CALLS))
    remove()
  }
  return [
    { workload: WORKLOAD, metric: 'bare', value: bare, unit: 'µs/call', note: 'target < 5' },
    { workload: WORKLOAD, metric: '4 pass-through listeners × 3 phases', value: listened, unit: 'µs/call' },
    {
      workload: WORKLOAD,
      metric: 'per extra listener',
      value: (listened - bare) / 12,
      unit: 'µs',
      note: 'target < 1.5',
    },
  ]
}
