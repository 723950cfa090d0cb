// Code Mode on each engine of @dsh/code-runtime-worker-thread (quickjs, the default, and
// node-vm), end to end through `ctx.tools.execute({ name: 'run_code' })`, beside floors
// measured in the same run (each after 500 unmeasured round trips):
// - floor_postmessage: a bare worker answering each `postMessage` with one (round trips/s);
// - floor_atomics: a bare worker blocked in `Atomics.wait` on a SharedArrayBuffer, answered by
//   the host with `Atomics.notify` and awaited with `Atomics.waitAsync` (round trips/s);
// - the same ping-pong with the worker, the host or both polling instead of sleeping: what a
//   hand-off costs when one thread, or none, has to be woken (not targets, bounds).
// Workloads per engine: `return 1` runs 100 ms apart (p50/p95 ms); 1,000 sequential awaited
// sub-calls and 1,000 under Promise.all (sub-calls/s, best of three runs after two unmeasured
// ones, and the sequential rate as a ratio to each floor); a compute-heavy program — sort 100k numbers, build and JSON.stringify a ~1 MB object —
// through the runtime alone (ms, and the ratio quickjs / node-vm); the sequential sub-calls
// through the runtime alone (what the bridge adds is the difference); `return 1` with no warm
// worker (the boot a warm worker hides); and the engine's wasm compile, done once on the host.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime, {
  type CodeEngine,
  createWorkerThreadRuntime,
} from '@dsh/code-runtime-worker-thread'
import type { CodeRunHost } from '@dsh/tools-codemode'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import type { BenchRow } from './types'

const ENGINES: readonly CodeEngine[] = ['quickjs', 'node-vm']
const CALLS = 1_000
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function postMessageFloor(roundTrips: number): Promise<number> {
  const worker = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m))",
    { eval: true },
  )
  const ping = (i: number) =>
    new Promise<void>((resolve) => {
      worker.once('message', () => resolve())
      worker.postMessage(i)
    })
  for (let i = 0; i < 500; i++) await ping(i)
  const start = performance.now()
  for (let i = 500; i < roundTrips + 500; i++) await ping(i)
  const rate = roundTrips / ((performance.now() - start) / 1000)
  await worker.terminate()
  return rate
}

/**
 * Which side of an Atomics ping-pong polls the shared word instead of sleeping on it. The plain
 * floor sleeps on both sides; the others show what one hand-off costs on this machine when only
 * one thread (or neither) has to be woken, which bounds what any runtime built on these threads
 * can reach per sequential sub-call.
 */
type Spinning = 'neither' | 'worker' | 'host' | 'both'

async function atomicsFloor(roundTrips: number, spinning: Spinning = 'neither'): Promise<number> {
  const shared = new Int32Array(new SharedArrayBuffer(8))
  const workerSpins = spinning === 'worker' || spinning === 'both'
  const hostSpins = spinning === 'host' || spinning === 'both'
  const worker = new Worker(
    `const { workerData: { a, spin } } = require('node:worker_threads')
    let last = 0
    for (;;) {
      if (spin) while (Atomics.load(a, 0) === last);
      Atomics.wait(a, 0, last)
      last = Atomics.load(a, 0)
      if (last < 0) break
      Atomics.store(a, 1, last)
      Atomics.notify(a, 1)
    }`,
    { eval: true, workerData: { a: shared, spin: workerSpins } },
  )
  const ping = async (i: number) => {
    Atomics.store(shared, 0, i)
    Atomics.notify(shared, 0)
    if (hostSpins) {
      while (Atomics.load(shared, 1) !== i);
      return
    }
    while (Atomics.load(shared, 1) !== i) {
      const wait = Atomics.waitAsync(shared, 1, i - 1)
      if (wait.async) await wait.value
    }
  }
  // Warmed like the runs it is compared with: the first few hundred round trips compile the loop.
  for (let i = 1; i <= 500; i++) await ping(i)
  const start = performance.now()
  for (let i = 501; i <= roundTrips + 500; i++) await ping(i)
  const rate = roundTrips / ((performance.now() - start) / 1000)
  Atomics.store(shared, 0, -1)
  Atomics.notify(shared, 0)
  await worker.terminate()
  return rate
}

async function codeModeApp(engine: CodeEngine): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime, { engine })
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

let callCounter = 0
async function runCode(ctx: Context, code: string): Promise<number> {
  const start = performance.now()
  const result = await ctx.tools.execute({
    callId: `engines-${++callCounter}`,
    name: 'run_code',
    arguments: { code, description: 'benchmark program' },
    signal: new AbortController().signal,
  })
  if (result.isError) throw new Error(result.error.message)
  return performance.now() - start
}

/**
 * The best of three runs, after two unmeasured ones: each run is a fresh worker, but the host's
 * side of a sub-call (bridge, pipeline, protocol) is only compiled after a few thousand calls,
 * and the floors it is compared with are measured warm too.
 */
async function bestRate(ctx: Context, code: string, calls: number): Promise<number> {
  for (let round = 0; round < 2; round++) await runCode(ctx, code)
  let best = 0
  for (let round = 0; round < 3; round++) best = Math.max(best, calls / ((await runCode(ctx, code)) / 1000))
  return best
}

const COMPUTE = `const xs = Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 100_003)
xs.sort((a, b) => a - b)
const rows = Array.from({ length: 12_000 }, (_, i) => ({ id: i, name: 'row ' + i, tags: ['a', 'b'], score: i / 3 }))
const text = JSON.stringify({ rows })
return [xs[0], xs[xs.length - 1], text.length]`

/** `return 1` with no warm worker: the run pays the worker's boot (spawn → engine ready). */
async function coldStartMs(engine: CodeEngine): Promise<number> {
  const runtime = createWorkerThreadRuntime({ engine, warmWorkers: 0 })
  const host: CodeRunHost = { signal: new AbortController().signal, call: async () => null }
  const samples: number[] = []
  try {
    for (let i = 0; i < 8; i++) {
      await sleep(100)
      const start = performance.now()
      const outcome = await runtime.run({ code: 'return 1', description: 'cold', toolNames: [] }, host)
      if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`)
      samples.push(performance.now() - start)
    }
  } finally {
    await runtime.dispose()
  }
  return percentile(samples, 50)
}

/**
 * Sequential sub-calls through the runtime alone, with a host that answers at once: the same
 * program as the Code Mode row, without the bridge's admission, policy and rendering, so the
 * two rows split a sub-call's cost between the runtime and Code Mode.
 */
async function runtimeOnlySequential(engine: CodeEngine): Promise<number> {
  const runtime = createWorkerThreadRuntime({ engine, warmWorkers: 1 })
  const host: CodeRunHost = {
    signal: new AbortController().signal,
    call: async (_name, args) => (args as { i: number }).i,
  }
  const code = `let sum = 0\nfor (let i = 0; i < ${CALLS}; i++) sum += await tools.noop({ i })\nreturn sum`
  let best = 0
  try {
    // Two unmeasured runs first, as in bestRate.
    for (let round = 0; round < 5; round++) {
      await sleep(200)
      const start = performance.now()
      const outcome = await runtime.run({ code, description: 'sequential', toolNames: ['noop'] }, host)
      if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`)
      if (round >= 2) best = Math.max(best, CALLS / ((performance.now() - start) / 1000))
    }
  } finally {
    await runtime.dispose()
  }
  return best
}

/** What a worker would pay to compile the engine itself, which the host does once instead. */
function wasmCompileMs(): number {
  // The package exports only an `import` condition, so resolve its package.json (exported for
  // exactly this) and look the engine up from there, as the runtime itself would.
  const require = createRequire(import.meta.url)
  const path = createRequire(require.resolve('@dsh/code-runtime-worker-thread/package.json')).resolve(
    '@jitl/quickjs-wasmfile-release-sync/wasm',
  )
  const bytes = readFileSync(path)
  const start = performance.now()
  new WebAssembly.Module(bytes)
  return performance.now() - start
}

async function computeMs(engine: CodeEngine): Promise<number> {
  const runtime = createWorkerThreadRuntime({ engine, warmWorkers: 1, computeMs: 120_000 })
  const host: CodeRunHost = { signal: new AbortController().signal, call: async () => null }
  const samples: number[] = []
  try {
    for (let i = 0; i < 4; i++) {
      await sleep(200)
      const start = performance.now()
      const outcome = await runtime.run({ code: COMPUTE, description: 'compute', toolNames: [] }, host)
      if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`)
      if (i > 0) samples.push(performance.now() - start)
    }
  } finally {
    await runtime.dispose()
  }
  return percentile(samples, 50)
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const postMessage = await postMessageFloor(CALLS * 5)
  const atomics = await atomicsFloor(CALLS * 5)
  const floors = 'floors: bare worker round trips'
  rows.push(
    { workload: floors, metric: 'postMessage ping-pong', value: postMessage, unit: 'round trips/s' },
    {
      workload: floors,
      metric: 'SharedArrayBuffer/Atomics ping-pong',
      value: atomics,
      unit: 'round trips/s',
    },
  )
  // What one hand-off costs when fewer threads sleep: the bounds of the spinning the runtime does.
  for (const [spinning, metric] of [
    ['worker', 'Atomics ping-pong, worker polls (only the host sleeps)'],
    ['host', 'Atomics ping-pong, host polls (only the worker sleeps)'],
    ['both', 'Atomics ping-pong, both poll (no thread sleeps)'],
  ] as const) {
    rows.push({
      workload: floors,
      metric,
      value: await atomicsFloor(CALLS * 5, spinning),
      unit: 'round trips/s',
    })
  }
  const compute: Partial<Record<CodeEngine, number>> = {}
  for (const engine of ENGINES) {
    const workload = `code_mode_engine ${engine}`
    const ctx = await codeModeApp(engine)
    try {
      for (let i = 0; i < 5; i++) await runCode(ctx, 'return 1')
      const spaced: number[] = []
      for (let i = 0; i < 30; i++) {
        await sleep(100)
        spaced.push(await runCode(ctx, 'return 1'))
      }
      const sequential = await bestRate(
        ctx,
        `let sum = 0\nfor (let i = 0; i < ${CALLS}; i++) sum += await tools.noop({ i })\nreturn sum`,
        CALLS,
      )
      const parallel = await bestRate(
        ctx,
        `const out = await Promise.all(Array.from({ length: ${CALLS} }, () => tools.echo({ text: 'x' })))\nreturn out.length`,
        CALLS,
      )
      rows.push(
        {
          workload,
          metric: 'return 1, runs 100 ms apart, p50',
          value: percentile(spaced, 50),
          unit: 'ms',
          note: 'target ≤ 10 ms',
        },
        { workload, metric: 'return 1, runs 100 ms apart, p95', value: percentile(spaced, 95), unit: 'ms' },
        { workload, metric: 'sequential awaited sub-calls', value: sequential, unit: 'sub-calls/s' },
        {
          workload,
          metric: 'sequential / Atomics floor',
          value: sequential / atomics,
          unit: '×',
          note: 'target ≥ 0.9',
        },
        {
          workload,
          metric: 'sequential / postMessage floor',
          value: sequential / postMessage,
          unit: '×',
          note: 'target ≥ 1.3',
        },
        { workload, metric: 'Promise.all sub-calls', value: parallel, unit: 'sub-calls/s' },
      )
    } finally {
      await ctx.fiber.dispose()
    }
    rows.push({
      workload,
      metric: 'sequential sub-calls, runtime only (host answers at once)',
      value: await runtimeOnlySequential(engine),
      unit: 'sub-calls/s',
      note: 'the rest of a Code Mode sub-call is the bridge',
    })
    rows.push({
      workload,
      metric: 'return 1, no warm worker (boot + run), p50',
      value: await coldStartMs(engine),
      unit: 'ms',
    })
    compute[engine] = await computeMs(engine)
    rows.push({
      workload,
      metric: 'compute: sort 100k numbers + stringify ~1 MB',
      value: compute[engine]!,
      unit: 'ms',
      note: 'p50 of 3 runs, runtime only',
    })
  }
  rows.push({
    workload: 'code_mode_engine quickjs',
    metric: 'compile the engine wasm (once per process on the host)',
    value: wasmCompileMs(),
    unit: 'ms',
    note: 'saved per worker: the compiled Module is cloned to each',
  })
  rows.push({
    workload: 'code_mode_engine compute ratio',
    metric: 'quickjs / node-vm (compute program)',
    value: compute.quickjs! / compute['node-vm']!,
    unit: '×',
  })
  return rows
}
