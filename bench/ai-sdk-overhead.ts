// Workload: what the AI SDK adapter adds per call. One trivial tool, 5,000 sequential calls per
// path, the paths interleaved call by call in the same run:
//   - `ctx.tools.execute` with a fresh AbortSignal (the pipeline alone);
//   - the same tool's `execute` from `aiSdkTools(ctx)`, called as the AI SDK calls it (input,
//     `{ toolCallId, messages, abortSignal }`) and drained as the AI SDK drains it (an async
//     iterable: preliminary values, the last one final).
// Reports medians in µs per call, their difference (the adapter's own cost, target ≤ 5 µs) and
// their ratio. The 10th percentiles compare calls nothing else on the machine interrupted.
import { Context } from '@deepseek-ai/cordis'
import { aiSdkTools } from '@dsh/tools-ai-sdk'
import ToolRuntime, { type ObjectJsonSchema } from '@dsh/tools-core'
import type { ModelMessage, ToolExecutionOptions } from 'ai'
import type { BenchRow } from './types'

const WORKLOAD = 'ai_sdk_overhead: trivial tool, 5,000 sequential calls, adapter vs ctx.tools.execute'
const CALLS = 5_000
const SCHEMA: ObjectJsonSchema = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
}

interface Summary {
  readonly median: number
  readonly p10: number
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (fraction: number) => sorted[Math.floor(sorted.length * fraction)]! * 1000
  return { median: at(0.5), p10: at(0.1) }
}

async function interleave(paths: readonly (() => Promise<unknown>)[], calls: number): Promise<Summary[]> {
  const samples = paths.map((): number[] => [])
  for (let i = 0; i < calls; i++) {
    for (let p = 0; p < paths.length; p++) {
      const t0 = performance.now()
      await paths[p]!()
      samples[p]!.push(performance.now() - t0)
    }
  }
  return samples.map(summarize)
}

export default async function run(): Promise<BenchRow[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  ctx.tools.register({
    name: 'echo',
    description: 'Echo text.',
    parameters: SCHEMA,
    output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text: String(text) }] },
    execute: async (input) => (input as { text: string }).text,
  })
  const tools = ctx.tools
  const adapted = aiSdkTools(ctx).echo!.execute!
  const messages: ModelMessage[] = [{ role: 'user', content: 'echo' }]
  const input = { text: 'hi' }
  let n = 0

  const pipeline = async () => {
    const result = await tools.execute({
      callId: `p${n++}`,
      name: 'echo',
      arguments: input,
      signal: new AbortController().signal,
    })
    if (result.isError) throw new Error(result.error.message)
  }
  const adapter = async () => {
    const options: ToolExecutionOptions<unknown> = {
      toolCallId: `a${n++}`,
      messages,
      abortSignal: new AbortController().signal,
      context: undefined,
    }
    const output = adapted(input, options) as AsyncIterable<unknown>
    let last: unknown
    for await (const value of output) last = value
    if ((last as { status?: string } | undefined)?.status !== 'done') throw new Error('no final output')
  }

  await interleave([pipeline, adapter], CALLS) // JIT warm-up
  const [bare, through] = await interleave([pipeline, adapter], CALLS)
  await ctx.fiber.dispose()
  const row = (metric: string, value: number, unit: string, note?: string): BenchRow =>
    note === undefined
      ? { workload: WORKLOAD, metric, value, unit }
      : { workload: WORKLOAD, metric, value, unit, note }
  return [
    row('ctx.tools.execute', bare!.median, 'µs/call', 'the pipeline alone'),
    row('aiSdkTools(ctx).echo.execute, drained', through!.median, 'µs/call'),
    row('adapter cost (difference of medians)', through!.median - bare!.median, 'µs/call', 'target ≤ 5'),
    row('ratio adapter / pipeline', through!.median / bare!.median, '×'),
    row('adapter cost, 10th percentiles', through!.p10 - bare!.p10, 'µs/call', 'uninterrupted calls'),
  ]
}
