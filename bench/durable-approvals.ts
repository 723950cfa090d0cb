// Workload: durable approvals on the memory store and on a SQLite file (WAL; synced per commit, and
// at checkpoints only) — 300 calls of a trivial asked tool, each
// suspended (execute → APPROVAL_PENDING, the ticket stored), then decided and resumed (the
// signed decision, the claim, the body, the stored result). Reports p50 and p95 of each step.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolApprovals from '@dsh/tool-approvals'
import ToolRuntime, { defineTool, MemoryToolStore, type ToolFailure } from '@dsh/tools-core'
import SqliteToolStore from '@dsh/tools-store-sqlite'
import type { BenchRow } from './types'

const CALLS = 300

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}

/** The p50/p95 rows of `CALLS` suspend / decide+resume rounds on the store `store` plugs in. */
async function measure(label: string, store: (ctx: Context) => Promise<unknown>): Promise<BenchRow[]> {
  const workload = `durable_approvals: ${label}, ${CALLS} asked calls`
  const ctx = new Context()
  try {
    await store(ctx)
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolApprovals, { signingKey: 'bench-signing-key-0123456789abcdef' })
    ctx.tools.register(
      defineTool({
        name: 'echo',
        description: 'Echo text.',
        parameters: { text: { type: 'string', required: true } },
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: (args) => args.text,
      }),
    )
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'bench' }) as const)
    const signal = new AbortController().signal
    const suspend: number[] = []
    const resume: number[] = []
    for (let i = 0; i < CALLS + 20; i++) {
      let start = performance.now()
      const asked = (await ctx.tools.execute({
        callId: `c${i}`,
        name: 'echo',
        arguments: { text: 'hi' },
        signal,
      })) as ToolFailure
      const suspended = performance.now() - start
      const ticket = asked.pending!.ticket
      start = performance.now()
      await ctx.approvals.decide(ticket, { approve: true, by: 'bench' })
      const result = await ctx.tools.resume(ticket, { signal })
      const resumed = performance.now() - start
      if (result.isError) throw new Error(result.error.message)
      if (i < 20) continue // warm-up
      suspend.push(suspended)
      resume.push(resumed)
    }
    return [
      { workload, metric: 'suspend p50', value: percentile(suspend, 50), unit: 'ms', note: 'target ≤ 2' },
      { workload, metric: 'suspend p95', value: percentile(suspend, 95), unit: 'ms' },
      {
        workload,
        metric: 'decide + resume p50',
        value: percentile(resume, 50),
        unit: 'ms',
        note: 'target ≤ 3',
      },
      { workload, metric: 'decide + resume p95', value: percentile(resume, 95), unit: 'ms' },
    ]
  } finally {
    await ctx.fiber.dispose()
  }
}

export default async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-approvals-'))
  try {
    // The memory store first: the approvals' own cost, without a disk write.
    const memory = await measure('memory store', (ctx) => ctx.plugin(MemoryToolStore))
    const sqlite = await measure('SQLite file (WAL, synchronous=FULL, the default)', (ctx) =>
      ctx.plugin(SqliteToolStore, { path: join(dir, 'tools.db') }),
    )
    // Durable through a process crash but not a power loss: each state change skips its fsync.
    const normal = await measure("SQLite file (WAL, synchronous: 'normal')", (ctx) =>
      ctx.plugin(SqliteToolStore, { path: join(dir, 'tools-normal.db'), synchronous: 'normal' }),
    )
    return [...memory, ...sqlite, ...normal]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
