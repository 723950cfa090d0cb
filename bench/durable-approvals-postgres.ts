// Workload: 200 approved tickets on PostgreSQL, every one resumed at once by each of 4 processes
// (800 racing resumes): every body must run exactly once — counted from outside, in a file the
// bodies append to — and the rows report the wall time until the slowest process has every
// result, and the throughput. The server: DSH_TEST_PG_URL, a local one, or PGlite (the test
// helper of @dsh/tools-store-postgres decides; the note names which).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolApprovals from '@dsh/tool-approvals'
import ToolRuntime, { type ToolFailure } from '@dsh/tools-core'
import PostgresToolStore from '@dsh/tools-store-postgres'
import { testPostgres } from '../packages/tools-store-postgres/tests/support/postgres-server'
import { BENCH_KEY, bumpTool } from './fixtures/resume-worker'
import type { BenchRow } from './types'

const TICKETS = 200
const PROCESSES = 4
const WORKER = fileURLToPath(new URL('./fixtures/resume-worker.ts', import.meta.url))

function lineFrom(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! })
  return new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(line))
    child.once('exit', (code) => reject(new Error(`a resume worker exited (${code}) early`)))
  })
}

export default async function run(): Promise<BenchRow[]> {
  const server = await testPostgres('bench')
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-pg-resume-'))
  const bodies = join(dir, 'bodies.log')
  const ctx = new Context()
  const children: ChildProcess[] = []
  try {
    await ctx.plugin(PostgresToolStore, { connectionString: server.connectionString, schema: server.schema })
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolApprovals, { signingKey: BENCH_KEY })
    ctx.tools.register(bumpTool(bodies))
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'bench' }) as const)
    const signal = new AbortController().signal
    const tickets: string[] = []
    for (let n = 0; n < TICKETS; n++) {
      const asked = (await ctx.tools.execute({
        callId: `b${n}`,
        name: 'bump',
        arguments: { n },
        signal,
      })) as ToolFailure
      tickets.push(asked.pending!.ticket)
      await ctx.approvals.decide(asked.pending!.ticket, { approve: true, by: 'bench' })
    }
    const ticketsFile = join(dir, 'tickets.json')
    writeFileSync(ticketsFile, JSON.stringify(tickets))
    writeFileSync(bodies, '')
    for (let i = 0; i < PROCESSES; i++) {
      children.push(
        spawn(
          process.execPath,
          ['--import', 'tsx', WORKER, server.connectionString, server.schema, ticketsFile, bodies],
          { stdio: ['pipe', 'pipe', 'inherit'] },
        ),
      )
    }
    await Promise.all(children.map(lineFrom)) // every worker is ready
    const start = performance.now()
    const reports = children.map(lineFrom)
    for (const child of children) child.stdin!.write('go\n')
    const done = (await Promise.all(reports)).map(
      (line) => JSON.parse(line) as { errorCount: number; errors: string[] },
    )
    const wall = performance.now() - start
    const runs = readFileSync(bodies, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[0]!)
    const distinct = new Set(runs)
    if (runs.length !== TICKETS || distinct.size !== TICKETS)
      throw new Error(
        `expected ${TICKETS} body runs, one per ticket; got ${runs.length} runs of ${distinct.size} tickets`,
      )
    const failed = done.reduce((sum, report) => sum + report.errorCount, 0)
    if (failed > 0) throw new Error(`${failed} resumes failed: ${done.flatMap((r) => r.errors).join('; ')}`)
    const workload = `durable_approvals_postgres: ${TICKETS} tickets × ${PROCESSES} racing processes (${server.source})`
    return [
      {
        workload,
        metric: 'body runs',
        value: runs.length,
        unit: 'runs',
        note: `exactly one per ticket (${TICKETS})`,
      },
      { workload, metric: 'wall until every result', value: wall, unit: 'ms' },
      { workload, metric: 'throughput', value: (TICKETS * 1000) / wall, unit: 'tickets/s' },
    ]
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    await ctx.fiber.dispose()
    await server.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}
