// Python Code Mode suspend and replay across separate Node processes (SPEC §13.3), on PostgreSQL
// (DSH_TEST_PG_URL, as every PostgreSQL test here) and, with `DSH_LONG=1`, on a SQLite file too:
// a process runs a program that asks for approval and is SIGKILLed; the test process approves;
// another process resumes and is asked again; the test process denies and then resumes the run
// itself, in a fresh app (a third process, holding nothing of the run but the store). Every tool
// body appends a line to a counter file, counted from outside.
// Each process boots an app and an interpreter (a memory snapshot of its own): the default run
// keeps the store made for many processes, and Python on SQLite stays covered in one process by
// durable-run.integration.spec.ts (suspend, replay and divergence on a SQLite file).
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolApprovals from '@dsh/tool-approvals'
import { ResultProcesses } from '@dsh/tools-codemode/testing'
import ToolRuntime, { type ToolFailure } from '@dsh/tools-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type TestPostgres, testPostgres } from '../../tools-store-postgres/tests/support/postgres-server'
import { bodyRuns, durableApp, KEY, plugStore, resume } from './fixtures/durable-app'

const processes = new ResultProcesses(
  fileURLToPath(new URL('./fixtures/durable-run-worker.ts', import.meta.url)),
)
const dir = mkdtempSync(join(tmpdir(), 'dsh-pyodide-durable-processes-'))
let files = 0
let pg: TestPostgres

beforeAll(async () => {
  pg = await testPostgres('py_durable_run')
})
afterEach(() => processes.killAll())
afterAll(async () => {
  await pg?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** Start the worker; resolves with its result and the process (still running for `run`). */
const inProcess = (args: string[]) => processes.start(args)

const stores = [
  { name: 'PostgreSQL', spec: () => `pg:${pg.connectionString}#${pg.newSchema()}` },
  ...(process.env.DSH_LONG === '1'
    ? [{ name: 'SQLite', spec: () => `sqlite:${join(dir, `tools-${++files}.db`)}` }]
    : []),
]

/** Decide every approval `suspended` waits for, as a reviewer in this process on the same store. */
async function decide(spec: string, suspended: ToolFailure, approve: boolean): Promise<void> {
  const ctx = new Context()
  try {
    await plugStore(ctx, spec)
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolApprovals, { signingKey: KEY })
    for (const approval of suspended.pending!.approvals!)
      await ctx.approvals.decide(
        approval.ticket,
        approve ? { approve, by: 'ana' } : { approve, by: 'ana', note: 'no' },
      )
  } finally {
    await ctx.fiber.dispose()
  }
}

describe.each(stores)('Python runs in separate processes on $name', (store) => {
  it('suspends, is SIGKILLed, resumes in another process: each body once, time and random replayed; asks again, is denied in a third', {
    timeout: 180_000,
  }, async () => {
    const spec = store.spec()
    const counter = join(dir, `bodies-${++files}.txt`)
    const program = join(dir, `program-${files}.py`)
    writeFileSync(
      program,
      `import time, random
t, r = time.time(), random.random()
a = await tools.fetch_item({"id": 1})
print("seen", json.dumps({"t": t, "r": r}))
deleted = await tools.delete_item({"id": int(r * 1e6)})
try:
    second = await tools.delete_item({"id": 7})
except ToolCallError as error:
    second = "ToolCallError: " + str(error)
return {"t": t, "r": r, "a": a, "deleted": deleted.startswith("deleted-"), "second": second}`,
    )
    const { result, child } = await inProcess(['run', spec, counter, program])
    const exit = once(child, 'exit')
    child.kill('SIGKILL')
    await exit
    const pending = result as ToolFailure
    expect(pending).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_PENDING' } } })
    const text = pending.content[0]?.type === 'text' ? pending.content[0].text : ''
    const seen = JSON.parse(/seen (\{.*\})/.exec(text)![1]!)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1 })
    await decide(spec, pending, true)
    const deleted = `delete ${Math.floor(seen.r * 1e6)}`
    // The second ask suspends the run again, under the same ticket, in the resuming process.
    const again = (await inProcess(['resume', spec, counter, pending.pending!.ticket])).result as ToolFailure
    expect(again).toMatchObject({
      error: { info: { code: 'APPROVAL_PENDING' } },
      pending: { ticket: pending.pending!.ticket },
    })
    expect(again.pending!.approvals).toHaveLength(1)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, [deleted]: 1 })
    await decide(spec, again, false)
    // The third process is this one: its interpreter boots from the memory snapshot this process
    // already holds, where a child of its own would make one first (seconds of CPU).
    const app = await durableApp(spec, counter)
    const done = await resume(app, pending.pending!.ticket).finally(() => app.fiber.dispose())
    expect(done).toMatchObject({
      isError: false,
      value: {
        logs: [],
        result: {
          ...seen,
          a: 'item-1',
          deleted: true,
          second: expect.stringMatching(/^ToolCallError: DENIED: no/),
        },
      },
    })
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, [deleted]: 1 })
  })
})
