// Workload: one trivial tool, 20,000 sequential `ctx.tools.execute` calls — without
// @dsh/tool-otel (the floor), with it loaded and no SDK registered (the no-op tracer: target
// ≤ 1.1× the floor), and with a real SDK recording into an in-memory exporter (reported).
import { Context } from '@deepseek-ai/cordis'
import ToolOtel from '@dsh/tool-otel'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import type { BenchRow } from './types'

const WORKLOAD = 'otel_overhead: trivial tool, 20,000 sequential calls'
const CALLS = 20_000

const echo = defineTool({
  name: 'echo',
  description: 'Echo text.',
  parameters: { text: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  execute: (args) => args.text,
})

async function app(otel?: Parameters<typeof ToolOtel.apply>[1]): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  if (otel !== undefined) await ctx.plugin(ToolOtel, otel)
  ctx.tools.register(echo)
  return ctx
}

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

export default async function run(): Promise<BenchRow[]> {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const bare = await app()
  const noop = await app({}) // no global SDK registered: the plugin installs nothing
  const traced = await app({ tracer: provider.getTracer('bench') })
  for (const ctx of [bare, noop, traced]) await measure(ctx, 5_000)
  exporter.reset()
  // Alternate the three and keep the best round of each, so machine noise hits all alike.
  const best = {
    bare: Number.POSITIVE_INFINITY,
    noop: Number.POSITIVE_INFINITY,
    traced: Number.POSITIVE_INFINITY,
  }
  for (let round = 0; round < 5; round++) {
    best.bare = Math.min(best.bare, await measure(bare, CALLS))
    best.noop = Math.min(best.noop, await measure(noop, CALLS))
    best.traced = Math.min(best.traced, await measure(traced, CALLS))
    exporter.reset()
  }
  return [
    { workload: WORKLOAD, metric: 'without tool-otel (floor)', value: best.bare, unit: 'µs/call' },
    { workload: WORKLOAD, metric: 'tool-otel, no-op tracer', value: best.noop, unit: 'µs/call' },
    {
      workload: WORKLOAD,
      metric: 'no-op tracer ÷ floor',
      value: best.noop / best.bare,
      unit: '×',
      note: 'target ≤ 1.1',
    },
    { workload: WORKLOAD, metric: 'tool-otel, in-memory SDK', value: best.traced, unit: 'µs/call' },
    { workload: WORKLOAD, metric: 'in-memory SDK ÷ floor', value: best.traced / best.bare, unit: '×' },
  ]
}
