// Runtime-level workloads of @dsh/code-runtime-worker-thread with a trivial host (no tool
// pipeline): the part of code_mode_cold / code_mode_subcalls the runtime itself costs.
// - worker_runtime_cold: `return 1`, 30 runs spaced 100 ms apart (as model turns are), and 30
//   back-to-back runs: p50/p95 ms, each measured until `run` settles (a completed run settles on
//   the completion message its worker posts right before `process.exit()`; the exit itself is
//   awaited by the concurrency slot and by dispose, not by the run).
// - worker_runtime_subcalls: 2,000 sequential awaited calls, and 2,000 under Promise.all.
import { createWorkerThreadRuntime } from '@dsh/code-runtime-worker-thread'
import type { CodeRunHost } from '@dsh/tools-codemode'
import type { BenchRow } from './types'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const host: CodeRunHost = {
  signal: new AbortController().signal,
  call: async () => 1,
}

async function timeRun(
  runtime: ReturnType<typeof createWorkerThreadRuntime>,
  code: string,
  names: string[] = [],
) {
  const started = performance.now()
  const outcome = await runtime.run({ code, description: 'benchmark program', toolNames: names }, host)
  if (!outcome.ok) throw new Error(`${outcome.kind}: ${outcome.message}`)
  return performance.now() - started
}

export default async function run(): Promise<BenchRow[]> {
  const runtime = createWorkerThreadRuntime({ warmWorkers: 2 })
  try {
    await sleep(500)
    await timeRun(runtime, 'return 1')
    const spaced: number[] = []
    for (let i = 0; i < 30; i++) {
      await sleep(100)
      spaced.push(await timeRun(runtime, 'return 1'))
    }
    await sleep(500)
    const backToBack: number[] = []
    for (let i = 0; i < 30; i++) backToBack.push(await timeRun(runtime, 'return 1'))
    await sleep(500)
    const sequentialMs = await timeRun(
      runtime,
      'let s = 0\nfor (let i = 0; i < 2000; i++) s += (await tools.t({ i })) as number\nreturn s',
      ['t'],
    )
    await sleep(500)
    const parallelMs = await timeRun(
      runtime,
      'const r = await Promise.all(Array.from({ length: 2000 }, (_, i) => tools.t({ i })))\nreturn r.length',
      ['t'],
    )
    const note = 'runtime only, trivial host'
    return [
      {
        workload: 'worker_runtime_cold',
        metric: 'p50 (spaced 100 ms)',
        value: percentile(spaced, 50),
        unit: 'ms',
        note,
      },
      {
        workload: 'worker_runtime_cold',
        metric: 'p95 (spaced 100 ms)',
        value: percentile(spaced, 95),
        unit: 'ms',
        note,
      },
      {
        workload: 'worker_runtime_cold',
        metric: 'p50 (back-to-back)',
        value: percentile(backToBack, 50),
        unit: 'ms',
        note,
      },
      {
        workload: 'worker_runtime_cold',
        metric: 'p95 (back-to-back)',
        value: percentile(backToBack, 95),
        unit: 'ms',
        note,
      },
      {
        workload: 'worker_runtime_subcalls',
        metric: 'sequential (2,000 awaited)',
        value: 2000 / (sequentialMs / 1000),
        unit: 'calls/s',
        note: `${note}; includes the run's start and exit`,
      },
      {
        workload: 'worker_runtime_subcalls',
        metric: 'parallel (2,000 under Promise.all)',
        value: 2000 / (parallelMs / 1000),
        unit: 'calls/s',
        note: `${note}; includes the run's start and exit`,
      },
    ]
  } finally {
    await runtime.dispose()
  }
}
