// Workloads of Python Code Mode (@dsh/code-runtime-pyodide), beside the TypeScript runtime:
// - python_boot: cold interpreter boot (a run on a runtime with no warm interpreter, so the
//   worker spawn, Pyodide load and kernel install are all in the figure): the first one in the
//   process (it also makes the process's memory snapshot), then 3 that restore from it; and, in
//   this process, Pyodide's own boot with and without a memory snapshot (`_makeSnapshot` +
//   `makeMemorySnapshot()` → `_loadSnapshot`) as the floor of both.
// - python_run: `run_code` `return 1` through ctx.tools.execute, runs 2 s apart with warm
//   interpreters ready, p50/p95 (target ≤ 50 ms).
// - python_subcalls: one program making N sequential awaited sub-calls, one making N under
//   asyncio.gather to a concurrency-safe tool: sub-calls/s, beside the same programs in
//   TypeScript on @dsh/code-runtime-worker-thread.
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import PyodideCodeRuntime, { createPyodideRuntime } from '@dsh/code-runtime-pyodide'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import type { BenchRow } from './types'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const SUBCALLS = 500

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

let callCounter = 0
async function runCode(ctx: Context, code: string): Promise<ToolExecutionResult> {
  const result = await ctx.tools.execute({
    callId: `bench-py-${++callCounter}`,
    name: 'run_code',
    arguments: { code, description: 'benchmark program' },
    signal: new AbortController().signal,
  })
  if (result.isError) throw new Error(result.error.message)
  return result
}

async function app(language: 'python' | 'typescript'): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  if (language === 'python') await ctx.plugin(PyodideCodeRuntime, { warmWorkers: 2 })
  else await ctx.plugin(WorkerThreadCodeRuntime)
  await ctx.plugin(CodeMode)
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

/** Cold runs on fresh runtimes: the first also makes the process's snapshot, the rest restore it. */
async function coldBoots(): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < 4; i++) {
    const runtime = createPyodideRuntime({ warmWorkers: 0 })
    const start = performance.now()
    await runtime.run(
      { code: 'return 1', description: 'boot', toolNames: [] },
      { signal: new AbortController().signal, call: async () => null },
    )
    samples.push(performance.now() - start)
    await runtime.dispose()
  }
  return samples
}

interface PyodideModule {
  loadPyodide(
    options: Record<string, unknown>,
  ): Promise<{ makeMemorySnapshot(): Uint8Array; runPython(code: string): unknown }>
}

/** Pyodide's own boot in this process: plain, in snapshot-making mode, and from a snapshot. */
async function snapshotBoots(): Promise<{ plain: number; fromSnapshot: number; snapshotBytes: number }> {
  const directory = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))
  const { loadPyodide } = (await import(pathToFileURL(`${directory}/pyodide.mjs`).href)) as PyodideModule
  const indexURL = `${directory}/`
  let start = performance.now()
  await loadPyodide({ indexURL })
  const plain = performance.now() - start
  const maker = await loadPyodide({ indexURL, _makeSnapshot: true })
  const snapshot = maker.makeMemorySnapshot()
  start = performance.now()
  const restored = await loadPyodide({ indexURL, _loadSnapshot: snapshot })
  const fromSnapshot = performance.now() - start
  if (restored.runPython('1 + 1') !== 2) throw new Error('snapshot boot is broken')
  return { plain, fromSnapshot, snapshotBytes: snapshot.byteLength }
}

async function spacedRuns(ctx: Context, runs: number, gapMs: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    await sleep(gapMs)
    const start = performance.now()
    await runCode(ctx, 'return 1')
    samples.push(performance.now() - start)
  }
  return samples
}

async function subCallsPerSecond(ctx: Context, code: string): Promise<number> {
  let best = 0
  for (let round = 0; round < 3; round++) {
    // Give the pool time to boot the next interpreter: the figure is the program, not the boot.
    await sleep(ctx.codeRuntime.language === 'python' ? 2_000 : 100)
    const start = performance.now()
    await runCode(ctx, code)
    best = Math.max(best, SUBCALLS / ((performance.now() - start) / 1000))
  }
  return best
}

const programs = {
  python: {
    sequential: `for i in range(${SUBCALLS}):\n    await tools.noop({"i": i})\nreturn 1`,
    parallel: `await asyncio.gather(*[tools.echo({"text": str(i)}) for i in range(${SUBCALLS})])\nreturn 1`,
  },
  typescript: {
    sequential: `for (let i = 0; i < ${SUBCALLS}; i++) await tools.noop({ i })\nreturn 1`,
    parallel: `await Promise.all(Array.from({ length: ${SUBCALLS} }, (_, i) => tools.echo({ text: String(i) })))\nreturn 1`,
  },
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const [first, ...restored] = await coldBoots()
  const boot = 'python_boot: interpreter boot'
  rows.push(
    {
      workload: boot,
      metric: 'first cold run in the process (make snapshot + restore + kernel)',
      value: first!,
      unit: 'ms',
    },
    {
      workload: boot,
      metric: 'cold run from the process snapshot (spawn + restore + kernel), median of 3',
      value: percentile(restored, 50),
      unit: 'ms',
      note: 'hidden by warmWorkers',
    },
  )
  const snapshot = await snapshotBoots()
  rows.push(
    { workload: boot, metric: 'loadPyodide in-process, plain', value: snapshot.plain, unit: 'ms' },
    {
      workload: boot,
      metric: 'loadPyodide in-process, from a memory snapshot',
      value: snapshot.fromSnapshot,
      unit: 'ms',
      note: `${(snapshot.snapshotBytes / 2 ** 20).toFixed(0)} MiB snapshot; ratio ${(snapshot.fromSnapshot / snapshot.plain).toFixed(2)}`,
    },
  )

  const python = await app('python')
  const spaced = await spacedRuns(python, 10, 2_000)
  const runRow = 'python_run: 10 runs of `return 1` via ctx.tools.execute, 2 s apart'
  rows.push(
    {
      workload: runRow,
      metric: 'p50, warm interpreter ready',
      value: percentile(spaced, 50),
      unit: 'ms',
      note: 'target ≤ 50 ms',
    },
    { workload: runRow, metric: 'p95', value: percentile(spaced, 95), unit: 'ms' },
  )
  const typescript = await app('typescript')
  const subcalls = `python_subcalls: ${SUBCALLS} sub-calls in one program`
  for (const [language, ctx] of [
    ['python', python],
    ['typescript', typescript],
  ] as const) {
    rows.push(
      {
        workload: subcalls,
        metric: `${language}: sequential awaits`,
        value: await subCallsPerSecond(ctx, programs[language].sequential),
        unit: 'calls/s',
      },
      {
        workload: subcalls,
        metric: `${language}: ${language === 'python' ? 'asyncio.gather' : 'Promise.all'} (concurrency-safe)`,
        value: await subCallsPerSecond(ctx, programs[language].parallel),
        unit: 'calls/s',
      },
    )
  }
  await python.fiber.dispose()
  await typescript.fiber.dispose()
  return rows
}
