// Workload: `bash { command: 'true' }` round trip through ctx.tools.execute with the real
// runtime and the real tool (spawn of a detached `bash -c`, capture, exit, validation,
// rendering), with and without the timeout policy installed. Calls run one after another.
import { spawn } from 'node:child_process'
import { Context } from '@deepseek-ai/cordis'
import * as bash from '@dsh/tool-bash'
import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import ToolRuntime from '@dsh/tools-core'
import type { BenchRow } from './types'

const CALLS = 200
const WARMUP = 20

async function measure(withPolicy: boolean): Promise<number[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  if (withPolicy) await ctx.plugin(timeoutPolicy)
  await ctx.plugin(bash, {})
  const signal = new AbortController().signal
  const call = async (index: number) => {
    const result = await ctx.tools.execute({
      callId: `bench-${index}`,
      name: 'bash',
      arguments: { command: 'true', description: 'no-op' },
      signal,
    })
    if (result.isError) throw new Error(`bash failed: ${result.error.message}`)
  }
  for (let i = 0; i < WARMUP; i++) await call(i)
  const samples: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now()
    await call(i)
    samples.push(performance.now() - start)
  }
  return samples
}

/** Baseline: a bare detached `spawn('bash', ['-c', 'true'])` awaited to 'close', no runtime. */
async function measureBareSpawn(): Promise<number[]> {
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('bash', ['-c', 'true'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      child.once('error', reject).once('close', () => resolve())
    })
  for (let i = 0; i < WARMUP; i++) await once()
  const samples: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now()
    await once()
    samples.push(performance.now() - start)
  }
  return samples
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/**
 * `bash_echo`: ms per `bash { command: 'true' }` call, mean / p50 / p95, with and without the
 * timeout policy, plus a bare-spawn baseline (the process start dominates).
 */
export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const withPolicy of [false, true]) {
    const samples = await measure(withPolicy)
    const workload = `bash_echo: bash { command: 'true' }${withPolicy ? ' + timeout policy' : ''}`
    const note = `${CALLS} sequential calls after ${WARMUP} warm-up`
    rows.push({ workload, metric: 'mean', value: mean(samples), unit: 'ms/call', note })
    rows.push({ workload, metric: 'p50', value: percentile(samples, 50), unit: 'ms/call' })
    rows.push({ workload, metric: 'p95', value: percentile(samples, 95), unit: 'ms/call' })
  }
  const bare = await measureBareSpawn()
  const workload = "bash_echo baseline: bare spawn('bash', ['-c', 'true'])"
  rows.push({
    workload,
    metric: 'mean',
    value: mean(bare),
    unit: 'ms/call',
    note: 'no runtime, for comparison',
  })
  rows.push({ workload, metric: 'p50', value: percentile(bare, 50), unit: 'ms/call' })
  return rows
}
