// Code Mode suspend and replay across separate Node processes (SPEC §13.3), on a SQLite file and
// on PostgreSQL (DSH_TEST_PG_URL, as every PostgreSQL test here; never skipped in CI): a process
// runs a program that asks for approval, prints the run ticket and is SIGKILLed; the test
// process decides; another process resumes. Every tool body appends a line to a counter file,
// so body runs are counted from outside every process.
//
// Each scenario runs on one store by default, the scenarios alternating so both stores run the
// cross-process path (a SQLite file shared by processes, a PostgreSQL schema); the stores' own
// semantics are the conformance kit's (tools-store-*). `DSH_LONG=1` runs every scenario on both.
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import { ResultProcesses } from '@dsh/tools-codemode/testing'
import ToolRuntime, { type ToolFailure } from '@dsh/tools-core'
import PostgresToolStore from '@dsh/tools-store-postgres'
import SqliteToolStore from '@dsh/tools-store-sqlite'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
// By path, not as a dependency: @dsh/tool-approvals' tests depend (through @dsh/tools-mcp) on this
// package, and a dependency back would make a build cycle.
import ToolApprovals from '../../tool-approvals/src/index'
import { type TestPostgres, testPostgres } from '../../tools-store-postgres/tests/support/postgres-server'
import { bodyRuns, KEY } from './fixtures/durable-app'

const processes = new ResultProcesses(
  fileURLToPath(new URL('./fixtures/durable-run-worker.ts', import.meta.url)),
)
const dir = mkdtempSync(join(tmpdir(), 'dsh-durable-run-processes-'))
let files = 0
let pg: TestPostgres

beforeAll(async () => {
  pg = await testPostgres('durable_run')
})
afterEach(() => processes.killAll())
afterAll(async () => {
  await pg?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** Start the worker; resolves with its result and the process (still running for `run`). */
const inProcess = (args: string[]) => processes.start(args)

async function kill(child: ChildProcess): Promise<void> {
  expect(child.exitCode).toBeNull()
  const exit = once(child, 'exit')
  child.kill('SIGKILL')
  await exit
}

const LONG = process.env.DSH_LONG === '1'

interface Backend {
  readonly name: 'SQLite' | 'PostgreSQL'
  spec(): string
  open(ctx: Context, spec: string): PromiseLike<unknown>
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    spec: () => `sqlite:${join(dir, `tools-${++files}.db`)}`,
    open: (ctx, spec) =>
      ctx.plugin(SqliteToolStore, { path: spec.slice('sqlite:'.length), busyTimeoutMs: 20_000 }),
  },
  {
    name: 'PostgreSQL',
    spec: () => `pg:${pg.connectionString}#${pg.newSchema()}`,
    open: (ctx, spec) => {
      const [connectionString, schema] = spec.slice('pg:'.length).split('#') as [string, string]
      return ctx.plugin(PostgresToolStore, { connectionString, schema })
    },
  },
]

describe.each(backends)('separate processes on $name', (backend) => {
  /** Skip a scenario that runs on the other store (unless `DSH_LONG=1`: every store). */
  const runsOn = (context: TestContext, store: Backend['name']) =>
    context.skip(!LONG && backend.name !== store, `runs on ${store}; on both stores under DSH_LONG=1`)

  /** The reviewer's side, in this process: the same store, the same key. */
  async function reviewer<T>(spec: string, act: (ctx: Context) => Promise<T>): Promise<T> {
    const ctx = new Context()
    try {
      await backend.open(ctx, spec)
      await ctx.plugin(ToolRuntime)
      await ctx.plugin(ToolApprovals, { signingKey: KEY })
      return await act(ctx)
    } finally {
      await ctx.fiber.dispose()
    }
  }
  const decideAll = (spec: string, pending: ToolFailure, approve: boolean) =>
    reviewer(spec, async (ctx) => {
      for (const approval of pending.pending!.approvals!)
        await ctx.approvals.decide(approval.ticket, { approve, by: 'ana', note: 'not today' })
    })

  /** A fresh store and counter; the program suspends in a process that is then SIGKILLed. */
  async function suspended(code: string, flags: string[] = []) {
    const spec = backend.spec()
    const counter = join(dir, `bodies-${++files}.txt`)
    const program = join(dir, `program-${files}.ts`)
    writeFileSync(program, code)
    const { result, child } = await inProcess(['run', spec, counter, program, ...flags])
    await kill(child)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_PENDING' } } })
    return { spec, counter, pending: result as ToolFailure }
  }
  const resumeIn = async (spec: string, counter: string, ticket: string, flags: string[] = []) =>
    (await inProcess(['resume', spec, counter, ticket, ...flags])).result

  it('suspends, is SIGKILLed, resumes in another process after approval: each body once, clock and random replayed, logs not repeated', {
    timeout: 120_000,
  }, async (context) => {
    runsOn(context, 'SQLite')
    const { spec, counter, pending } = await suspended(`
      const t = Date.now(), r = Math.random()
      const [a, b] = await Promise.all([tools.fetch_item({ id: 1 }), tools.fetch_item({ id: 2 })])
      console.log('seen', JSON.stringify({ t, r }))
      const deleted = await tools.delete_item({ id: Math.floor(r * 1e6) })
      console.log('after', deleted.startsWith('deleted-'))
      return { t, r, a, b, c: await tools.fetch_item({ id: 3 }) }`)
    const text = pending.content[0]!.type === 'text' ? pending.content[0]!.text : ''
    const seen = JSON.parse(/seen (\{.*\})/.exec(text)![1]!)
    expect(pending.pending!.ticket).toMatch(/^run\./)
    expect(pending.pending!.approvals).toHaveLength(1)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1 })
    await decideAll(spec, pending, true)
    const done = await resumeIn(spec, counter, pending.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: { logs: ['after true'], result: { ...seen, a: 'item-1', b: 'item-2', c: 'item-3' } },
    })
    const deleted = `delete ${Math.floor(seen.r * 1e6)}`
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1, [deleted]: 1, 'fetch 3': 1 })
    // A third process gets the stored result and runs nothing.
    expect(await resumeIn(spec, counter, pending.pending!.ticket)).toEqual(done)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1, [deleted]: 1, 'fetch 3': 1 })
  })

  it('a second ask suspends again under the same run ticket; a denied call throws DENIED in the program', {
    timeout: 120_000,
  }, async (context) => {
    runsOn(context, 'PostgreSQL')
    const { spec, counter, pending } = await suspended(`
      const first = await tools.delete_item({ id: 1 })
      let second
      try { second = await tools.delete_item({ id: 2 }) } catch (e) { second = e.name + ': ' + e.message }
      return { first, second }`)
    await decideAll(spec, pending, true)
    const again = (await resumeIn(spec, counter, pending.pending!.ticket)) as ToolFailure
    expect(again).toMatchObject({
      error: { info: { code: 'APPROVAL_PENDING' } },
      pending: { ticket: pending.pending!.ticket },
    })
    expect(again.pending!.approvals).toHaveLength(1)
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1 })
    await decideAll(spec, again, false)
    const done = await resumeIn(spec, counter, pending.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: {
        result: { first: 'deleted-1', second: expect.stringMatching(/^ToolCallError: DENIED: not today/) },
      },
    })
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1 })
  })

  it('a program changed in the store, or a tool changed, is refused; nothing runs', {
    timeout: 120_000,
  }, async (context) => {
    runsOn(context, 'SQLite')
    const { spec, counter, pending } = await suspended(`
      await tools.fetch_item({ id: 1 })
      return await tools.delete_item({ id: 1 })`)
    await decideAll(spec, pending, true)
    const changedTool = await resumeIn(spec, counter, pending.pending!.ticket, ['changed'])
    expect(changedTool).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect(changedTool.isError && changedTool.error.message).toMatch(/tool `fetch_item` changed/)
    await reviewer(spec, async (ctx) => {
      const ref = { kind: 'run', agent: '', key: pending.pending!.ticket } as const
      const record = (await ctx.toolStore.get(ref))!
      const data = JSON.parse(record.data)
      data.code = data.code.replace(
        'id: 1 })\n      return',
        'id: 1 })\n      await tools.delete_item({ id: 9 })\n      return',
      )
      await ctx.toolStore.update(ref, record.version, {
        state: record.state,
        data: JSON.stringify(data),
        updatedAt: Date.now(),
      })
    })
    const changedProgram = await resumeIn(spec, counter, pending.pending!.ticket)
    expect(changedProgram).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect(changedProgram.isError && changedProgram.error.message).toMatch(/program was changed/)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1 })
  })

  it('a program that calls differently on replay fails as diverged at the sub-call, and runs nothing more', {
    timeout: 120_000,
  }, async (context) => {
    runsOn(context, 'PostgreSQL')
    const { spec, counter, pending } = await suspended(`
      const id = 'extra' in tools ? 2 : 1
      await tools.fetch_item({ id })
      return await tools.delete_item({ id })`)
    await decideAll(spec, pending, true)
    const diverged = await resumeIn(spec, counter, pending.pending!.ticket, ['extra'])
    expect(diverged).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
    expect(diverged.isError && diverged.error.message).toMatch(/the program diverged on replay at sub-call 1/)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1 })
  })
})
