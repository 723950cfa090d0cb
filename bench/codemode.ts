// Workloads of Code Mode, end to end through `ctx.tools.execute({ name: 'run_code' })` with
// the real worker-thread runtime:
// - code_mode_cold: 30 runs of `return 1`, each started 100 ms after the previous finished (as
//   model turns are spaced), p50/p95; and 30 back-to-back runs.
// - code_mode_subcalls: one program making 2,000 sequential awaited sub-calls to a trivial
//   tool, one making 2,000 under Promise.all to a concurrency-safe tool: sub-calls/s.
// - sdk_generation: the tools:sdk text for 300 varied tools, ms per assembly.
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool, type ToolDefinition, type ToolExecutionResult } from '@dsh/tools-core'
import type { BenchRow } from './types'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

let callCounter = 0
async function runCode(ctx: Context, code: string): Promise<ToolExecutionResult> {
  const result = await ctx.tools.execute({
    callId: `bench-${++callCounter}`,
    name: 'run_code',
    arguments: { code, description: 'benchmark program' },
    signal: new AbortController().signal,
  })
  if (result.isError) throw new Error(result.error.message)
  return result
}

async function codeModeApp(): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime)
  // The Promise.all workload keeps all 2,000 calls in flight at once: above the default cap.
  await ctx.plugin(CodeMode, { maxOutstandingSubCalls: 2_000 })
  ctx.tools.register(
    defineTool({
      name: 'noop',
      description: 'Returns its input number.',
      parameters: { i: { type: 'integer', required: true } },
      output: {
        schema: { type: 'integer' },
        render: (_args, value) => [{ type: 'text', text: String(value) }],
      },
      execute: (args) => args.i,
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'echo',
      description: 'Echo text (concurrency-safe).',
      parameters: { text: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: (args) => args.text,
      isConcurrencySafe: () => true,
    }),
  )
  return ctx
}

async function timeRuns(ctx: Context, runs: number, gapMs: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    if (gapMs > 0) await sleep(gapMs)
    const start = performance.now()
    await runCode(ctx, 'return 1')
    samples.push(performance.now() - start)
  }
  return samples
}

async function subCallsPerSecond(ctx: Context, code: string, calls: number): Promise<number> {
  let best = 0
  for (let round = 0; round < 5; round++) {
    const start = performance.now()
    await runCode(ctx, code)
    best = Math.max(best, calls / ((performance.now() - start) / 1000))
  }
  return best
}

/** Varied tools (shared with sdk-size.ts): scalars, enums, nested objects, arrays, oneOf, optional fields, exotic names. */
export function variedTools(count: number): ToolDefinition[] {
  const tools: ToolDefinition[] = []
  for (let i = 0; i < count; i++) {
    const name = i % 10 === 3 ? `tool-${i}-v2` : `tool_${String(i).padStart(3, '0')}`
    const parameters = {
      path: { type: 'string', required: true, description: `Path for tool ${i}. Ends */ here.` },
      mode: { type: 'string', enum: ['fast', 'slow', 'auto'] },
      limit: { type: 'integer' },
      filter: {
        type: 'object',
        additionalProperties: false,
        properties: {
          tags: { type: 'array', items: { type: 'string' } },
          depth: { type: 'integer' },
          range: {
            type: 'object',
            additionalProperties: false,
            properties: { from: { type: 'number' }, to: { type: 'number' } },
          },
        },
      },
      target: {
        oneOf: [
          { type: 'object', additionalProperties: false, properties: { file: { type: 'string' } } },
          {
            type: 'object',
            additionalProperties: false,
            properties: { dir: { type: 'string' }, recursive: { type: 'boolean' } },
          },
        ],
      },
    } as const
    tools.push(
      defineTool({
        name,
        description: `Tool number ${i}.\nDoes thing ${i % 7} to the path.`,
        parameters,
        output: {
          schema: {
            type: 'object',
            additionalProperties: false,
            properties: {
              ok: { type: 'boolean' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  properties: { name: { type: 'string' }, size: { type: 'integer' } },
                },
              },
            },
          },
          render: () => [{ type: 'text', text: 'ok' }],
        },
        execute: () => ({ ok: true, items: [] }),
      }) as ToolDefinition,
    )
  }
  return tools
}

async function sdkGeneration(): Promise<BenchRow[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime, { warmWorkers: 0 })
  await ctx.plugin(CodeMode)
  for (const tool of variedTools(300)) ctx.tools.register(tool)
  const sdkText = () => ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')!.text
  let start = performance.now()
  const first = sdkText()
  const cold = performance.now() - start
  const rounds = 2_000
  start = performance.now()
  for (let i = 0; i < rounds; i++) if (sdkText().length !== first.length) throw new Error('SDK text changed')
  const warm = (performance.now() - start) / rounds
  start = performance.now()
  for (let i = 0; i < 200; i++) CodeMode.renderTypeScriptSdk(ctx.tools.schemas())
  const renderOnly = (performance.now() - start) / 200
  await ctx.fiber.dispose()
  const workload = 'sdk_generation: tools:sdk for 300 varied tools'
  return [
    {
      workload,
      metric: 'assemble (cached fragments)',
      value: warm,
      unit: 'ms/assembly',
      note: 'target < 2 ms; upstream ~10 ms',
    },
    { workload, metric: 'SDK text only (cached fragments)', value: renderOnly, unit: 'ms/assembly' },
    {
      workload,
      metric: 'first assembly (cold cache)',
      value: cold,
      unit: 'ms',
      note: `${first.length} chars`,
    },
  ]
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const ctx = await codeModeApp()
  // Warm the JIT and the stripper: a few runs before measuring.
  await timeRuns(ctx, 10, 0)
  const spaced = await timeRuns(ctx, 30, 100)
  const backToBack = await timeRuns(ctx, 30, 0)
  const cold = 'code_mode_cold: 30 runs of `return 1` via ctx.tools.execute'
  rows.push(
    {
      workload: cold,
      metric: 'p50, runs 100 ms apart',
      value: percentile(spaced, 50),
      unit: 'ms',
      note: 'target < 10 ms; upstream ~52 ms',
    },
    { workload: cold, metric: 'p95, runs 100 ms apart', value: percentile(spaced, 95), unit: 'ms' },
    { workload: cold, metric: 'p50, back to back', value: percentile(backToBack, 50), unit: 'ms' },
    { workload: cold, metric: 'p95, back to back', value: percentile(backToBack, 95), unit: 'ms' },
  )
  const calls = 2_000
  const sequential = await subCallsPerSecond(
    ctx,
    `let sum = 0\nfor (let i = 0; i < ${calls}; i++) sum += await tools.noop({ i })\nreturn sum`,
    calls,
  )
  const parallel = await subCallsPerSecond(
    ctx,
    `const out = await Promise.all(Array.from({ length: ${calls} }, () => tools.echo({ text: 'x' })))\nreturn out.length`,
    calls,
  )
  const sub = 'code_mode_subcalls: 2,000 sub-calls in one program'
  rows.push(
    {
      workload: sub,
      metric: 'sequential awaited (trivial tool)',
      value: sequential,
      unit: 'sub-calls/s',
      note: 'target > 20,000; upstream ~3,000',
    },
    {
      workload: sub,
      metric: 'Promise.all (concurrency-safe tool)',
      value: parallel,
      unit: 'sub-calls/s',
      note: 'target > 40,000; upstream ~4,800',
    },
  )
  await ctx.fiber.dispose()
  rows.push(...(await sdkGeneration()))
  return rows
}
