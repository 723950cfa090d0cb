// Workload: `bash { command: 'true' }` round trip through ctx.tools.execute with the real
// runtime and the real tool (spawn of a detached `bash -c`, capture, exit, validation,
// rendering): unsandboxed, unsandboxed with the timeout policy, and in the OS sandbox (the
// default: @anthropic-ai/sandbox-runtime + bubblewrap). The floor is a bare detached
// `spawn('bash', ['-c', 'true'])` in the same run; every figure is also given as a ratio to it.
// The host event-loop block per call is measured separately: the host thread's busy time per
// call (`performance.eventLoopUtilization().active`) and the longest stall of its event loop
// during the call (`monitorEventLoopDelay`, 1 ms resolution), p50 over the calls — both
// wall-clock, so a loaded machine inflates them — and the host thread's own CPU time per call
// (Linux: `/proc/self/task/<pid>/stat`, mean over the calls), which contention does not.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { Context } from '@deepseek-ai/cordis'
import * as bash from '@dsh/tool-bash'
import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import ToolRuntime from '@dsh/tools-core'
// The sandbox wrapper is internal to the package; the bench measures it alone, from the source.
import { createSandboxWrapper } from '../packages/tool-bash/src/sandbox-wrapper'
import type { BenchRow } from './types'

const CALLS = 100
const WARMUP = 10

interface Variant {
  readonly label: string
  readonly withPolicy: boolean
  readonly sandbox: boolean
}

const VARIANTS: readonly Variant[] = [
  { label: "bash { command: 'true' } unsandboxed", withPolicy: false, sandbox: false },
  { label: "bash { command: 'true' } unsandboxed + timeout policy", withPolicy: true, sandbox: false },
  { label: "bash { command: 'true' } sandboxed (default)", withPolicy: false, sandbox: true },
]

async function measure(variant: Variant): Promise<number[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  if (variant.withPolicy) await ctx.plugin(timeoutPolicy)
  // fallback 'refuse': a host without the sandbox fails the bench instead of timing a plain spawn.
  await ctx.plugin(bash, { sandbox: variant.sandbox ? { fallback: 'refuse' } : false })
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
  return sample(call)
}

const spawnToClose = (file: string, args: readonly string[], env?: Readonly<Record<string, string>>) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(env ? { env } : {}),
    })
    child.once('error', reject).once('close', () => resolve())
  })

/** Floor: a bare detached `spawn('bash', ['-c', 'true'])` awaited to 'close', no runtime. */
function measureBareSpawn(): Promise<number[]> {
  return sample(() => spawnToClose('bash', ['-c', 'true']))
}

/**
 * The sandbox's process chain alone (bash → bwrap → seccomp helper → bash): one plan made by
 * `createSandboxWrapper`, spawned again and again — the rest of a sandboxed call's cost is the
 * library's per-call policy walk.
 */
async function measurePrewrappedSpawn(): Promise<number[]> {
  const wrap = createSandboxWrapper({ writableRoots: [process.cwd()], denyRead: [], network: 'none' })
  const plan = await wrap({
    command: 'true',
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '' },
    shell: 'bash',
    signal: new AbortController().signal,
  })
  try {
    return await sample(() => spawnToClose(plan.file, plan.args, plan.env))
  } finally {
    await plan.release()
  }
}

interface Block {
  readonly busy: number[]
  readonly stall: number[]
  /** Mean CPU ms of the host (main) thread per call, or `undefined` off Linux. */
  cpu?: number
}

/** CPU ms the main thread has used so far (utime + stime, 10 ms ticks), or `undefined`. */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/** Per call: the host thread's busy ms and its event loop's longest stall in ms. */
async function sampleBlock(once: (index: number) => Promise<void>): Promise<Block> {
  for (let i = 0; i < WARMUP; i++) await once(i)
  const block: Block = { busy: [], stall: [] }
  for (let i = 0; i < CALLS; i++) {
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    const before = performance.eventLoopUtilization()
    await once(i)
    const used = performance.eventLoopUtilization(before)
    delay.disable()
    block.busy.push(used.active)
    // The histogram's floor is its resolution: what is above it is the stall.
    block.stall.push(Math.max(0, delay.max / 1e6 - 1))
  }
  // A separate pass: the delay monitor's 1 ms timer costs the thread CPU of its own.
  const cpuBefore = mainThreadCpuMs()
  for (let i = 0; i < CALLS; i++) await once(i)
  const cpuAfter = mainThreadCpuMs()
  if (cpuBefore !== undefined && cpuAfter !== undefined) block.cpu = (cpuAfter - cpuBefore) / CALLS
  return block
}

/**
 * The event-loop block of a `bash { command: 'true' }` call, sandboxed and not, in a fresh
 * workspace (the protection scans' own cost grows with the workspace, off the host thread).
 */
async function measureBlock(sandbox: boolean): Promise<Block> {
  const workdir = mkdtempSync(join(tmpdir(), 'dsh-bench-bash-'))
  try {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(bash, { workdir, sandbox: sandbox ? { fallback: 'refuse' } : false })
    const signal = new AbortController().signal
    return await sampleBlock(async (index) => {
      const result = await ctx.tools.execute({
        callId: `block-${index}`,
        name: 'bash',
        arguments: { command: 'true', description: 'no-op' },
        signal,
      })
      if (result.isError) throw new Error(`bash failed: ${result.error.message}`)
    })
  } finally {
    rmSync(workdir, { recursive: true, force: true })
  }
}

async function sample(once: (index: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await once(i)
  const samples: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now()
    await once(i)
    samples.push(performance.now() - start)
  }
  return samples
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/**
 * `bash_echo`: ms per call (p50 / p95) for each variant and for the bare-spawn floor, and each
 * variant's p50 as a ratio to the floor's p50.
 */
export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const floor = await measureBareSpawn()
  const floorP50 = percentile(floor, 50)
  const floorWorkload = "bash_echo floor: bare spawn('bash', ['-c', 'true'])"
  const note = `${CALLS} sequential calls after ${WARMUP} warm-up`
  rows.push({ workload: floorWorkload, metric: 'p50', value: floorP50, unit: 'ms/call', note })
  rows.push({ workload: floorWorkload, metric: 'p95', value: percentile(floor, 95), unit: 'ms/call' })
  const chain = await measurePrewrappedSpawn()
  const chainWorkload = 'bash_echo: sandbox process chain only (pre-wrapped, spawned each call)'
  rows.push({ workload: chainWorkload, metric: 'p50', value: percentile(chain, 50), unit: 'ms/call', note })
  rows.push({ workload: chainWorkload, metric: 'p95', value: percentile(chain, 95), unit: 'ms/call' })
  rows.push({
    workload: chainWorkload,
    metric: 'p50 / floor p50',
    value: percentile(chain, 50) / floorP50,
    unit: '×',
  })
  for (const sandboxed of [true, false]) {
    const block = await measureBlock(sandboxed)
    const workload = `bash_echo: host event-loop block per ${sandboxed ? 'sandboxed' : 'unsandboxed'} call`
    const blockNote = `${note}; fresh workspace`
    rows.push({
      workload,
      metric: 'busy p50',
      value: percentile(block.busy, 50),
      unit: 'ms/call',
      note: blockNote,
    })
    rows.push({ workload, metric: 'stall p50', value: percentile(block.stall, 50), unit: 'ms/call' })
    rows.push({ workload, metric: 'stall p95', value: percentile(block.stall, 95), unit: 'ms/call' })
    if (block.cpu !== undefined) {
      rows.push({ workload, metric: 'host-thread CPU mean', value: block.cpu, unit: 'ms/call' })
    }
  }
  for (const variant of VARIANTS) {
    const samples = await measure(variant)
    const workload = `bash_echo: ${variant.label}`
    const p50 = percentile(samples, 50)
    rows.push({ workload, metric: 'p50', value: p50, unit: 'ms/call', note })
    rows.push({ workload, metric: 'p95', value: percentile(samples, 95), unit: 'ms/call' })
    rows.push({ workload, metric: 'p50 / floor p50', value: p50 / floorP50, unit: '×' })
  }
  return rows
}
