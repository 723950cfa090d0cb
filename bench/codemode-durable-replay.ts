// Workload: Code Mode suspend and replay (SPEC §13.3), QuickJS runtime, memory store. One
// program makes 200 sequential sub-calls to a trivial tool, then one call of `gate`.
// - ledger cost: the program with no approval asked, run with a store loaded (every sub-call
//   recorded in the run's journal) vs with none (nothing recorded). Target ≤ 1.05×.
// - resume cost: `gate` asked — the run suspends after its 200 calls; once decided, resuming it
//   replays the 200 from the ledger in a fresh worker and runs `gate` for real — vs the same
//   program run live without approvals. Target ≤ 1.3×.
// Medians of 25 interleaved rounds (alternating which side goes first), so a noisy machine slows
// both sides alike. The ledger pair differs only in the store (so in the journal); the resume
// runs in a third app that adds the approval service.
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import ToolApprovals from '@dsh/tool-approvals'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool, MemoryToolStore, type ToolFailure } from '@dsh/tools-core'
import type { BenchRow } from './types'

const CALLS = 200
const ROUNDS = 25
const PROGRAM = `let sum = 0
for (let i = 0; i < ${CALLS}; i++) sum += await tools.echo({ n: i })
return { sum, gate: await tools.gate({}) }`

/** The fastest round: on a shared machine noise only ever adds time, so minima compare costs best. */
function fastest(samples: number[]): number {
  return Math.min(...samples)
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** `none`: no store; `store`: a store (every run keeps its journal); `approvals`: store and approval service. */
async function app(kind: 'none' | 'store' | 'approvals') {
  const ctx = new Context()
  let ask = false
  if (kind !== 'none') await ctx.plugin(MemoryToolStore)
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  if (kind === 'approvals')
    await ctx.plugin(ToolApprovals, { signingKey: 'bench-signing-key-0123456789abcdef' })
  await ctx.plugin(WorkerThreadCodeRuntime)
  await ctx.plugin(CodeMode)
  ctx.on('tools/pre-execute', async (execution, next) =>
    ask && execution.name === 'gate' ? ({ kind: 'ask', reason: 'bench' } as const) : next(),
  )
  ctx.tools.register(
    defineTool({
      name: 'echo',
      description: 'Echo a number.',
      parameters: { n: { type: 'number', required: true } },
      output: {
        schema: { type: 'number' },
        render: (_args, value) => [{ type: 'text', text: String(value) }],
      },
      execute: ({ n }) => n,
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'gate',
      description: 'A call that may need approval.',
      parameters: {},
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: () => 'open',
    }),
  )
  return { ctx, setAsk: (value: boolean) => (ask = value) }
}

let ids = 0
async function timed<T>(action: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now()
  const value = await action()
  return [performance.now() - start, value]
}

function runProgram(ctx: Context) {
  return ctx.tools.execute({
    callId: `bench-durable-${++ids}`,
    name: 'run_code',
    arguments: { code: PROGRAM, description: 'bench' },
    signal: new AbortController().signal,
  })
}

export default async function run(): Promise<BenchRow[]> {
  const plain = await app('none')
  const journaled = await app('store')
  const durable = await app('approvals')
  try {
    const live: number[] = []
    const recorded: number[] = []
    const resumed: number[] = []
    for (let round = 0; round < ROUNDS + 2; round++) {
      // Alternate which side goes first, so a slow spell of the shared machine hits both alike.
      const sides = [() => timed(() => runProgram(plain.ctx)), () => timed(() => runProgram(journaled.ctx))]
      if (round % 2 === 1) sides.reverse()
      const first = await sides[0]!()
      const second = await sides[1]!()
      const [[plainMs, plainResult], [recordedMs, recordedResult]] =
        round % 2 === 1 ? [second, first] : [first, second]
      if (plainResult.isError) throw new Error(plainResult.error.message)
      if (recordedResult.isError) throw new Error(recordedResult.error.message)
      durable.setAsk(true)
      const asked = (await runProgram(durable.ctx)) as ToolFailure
      const pending = asked.pending
      if (pending?.approvals === undefined) throw new Error(`expected a suspension: ${asked.error?.message}`)
      for (const approval of pending.approvals)
        await durable.ctx.approvals.decide(approval.ticket, { approve: true, by: 'bench' })
      const signal = new AbortController().signal
      const [resumedMs, result] = await timed(() => durable.ctx.tools.resume(pending.ticket, { signal }))
      if (result.isError) throw new Error(result.error.message)
      if (round < 2) continue // warm-up
      live.push(plainMs)
      recorded.push(recordedMs)
      resumed.push(resumedMs)
    }
    const workload = `code_mode_durable: ${CALLS} sequential sub-calls + 1 (QuickJS, memory store)`
    return [
      { workload, metric: 'live, no store, median', value: median(live), unit: 'ms' },
      { workload, metric: 'live, ledger recorded, median', value: median(recorded), unit: 'ms' },
      {
        workload,
        metric: 'ledger cost (recorded / no store)',
        value: median(recorded) / median(live),
        unit: '×',
        note: 'target ≤ 1.05',
      },
      {
        workload,
        metric: 'ledger cost, fastest rounds',
        value: fastest(recorded) / fastest(live),
        unit: '×',
        note: 'target ≤ 1.05',
      },
      { workload, metric: 'resume (replay 200 + approved call), median', value: median(resumed), unit: 'ms' },
      {
        workload,
        metric: 'resume cost (resume / live)',
        value: median(resumed) / median(live),
        unit: '×',
        note: 'target ≤ 1.3',
      },
    ]
  } finally {
    await durable.ctx.fiber.dispose()
    await journaled.ctx.fiber.dispose()
    await plain.ctx.fiber.dispose()
  }
}
