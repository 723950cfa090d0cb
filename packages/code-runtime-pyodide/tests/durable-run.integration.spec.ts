// Code Mode suspend and replay of Python programs (SPEC §13.3) with real Pyodide workers, in one
// process on a SQLite file (the replay, the second ask and the divergence) and on the memory
// store; across processes on PostgreSQL in durable-run-processes.integration.spec.ts (SQLite
// there too with `DSH_LONG=1`).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { ToolFailure } from '@dsh/tools-core'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { bodyRuns, durableApp, resume, runProgram } from './fixtures/durable-app'

const dir = mkdtempSync(join(tmpdir(), 'dsh-pyodide-durable-run-'))
let files = 0
let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A SQLite file of its own: the store the cross-process file runs only with `DSH_LONG=1`. */
const sqlite = () => `sqlite:${join(dir, `tools-${++files}.db`)}`

async function start(store = 'memory', counter = join(dir, `bodies-${++files}.txt`), extra = false) {
  app = await durableApp(store, counter, { extra })
  return { ctx: app, counter }
}

const text = (result: ToolFailure) => (result.content[0]?.type === 'text' ? result.content[0].text : '')

describe('a Python run_code program that asks for approval', () => {
  it('suspends; resumes once decided with time and random replayed; logs not repeated; each body once', {
    timeout: 60_000,
  }, async () => {
    const { ctx, counter } = await start(sqlite())
    const first = (await runProgram(
      ctx,
      `import time, random
t, ns, r = time.time(), time.time_ns(), random.random()
a, b = await asyncio.gather(tools.fetch_item({"id": 1}), tools.fetch_item({"id": 2}))
print("seen", json.dumps({"t": t, "ns": str(ns), "r": r}))
deleted = await tools.delete_item({"id": int(r * 1e6)})
print("after", deleted.startswith("deleted-"))
return {"t": t, "ns": str(ns), "r": r, "r2": random.random(), "a": a, "b": b, "c": await tools.fetch_item({"id": 3})}`,
    )) as ToolFailure
    expect(first).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_PENDING' } } })
    const seen = JSON.parse(/seen (\{.*\})/.exec(text(first))![1]!)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1 })
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    const done = await resume(ctx, first.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: { logs: ['after True'], result: { ...seen, a: 'item-1', b: 'item-2', c: 'item-3' } },
    })
    const deleted = `delete ${Math.floor(seen.r * 1e6)}`
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1, [deleted]: 1, 'fetch 3': 1 })
  })

  it('asyncio.gather of two asked calls: both asked together, resumed once; a denied one raises ToolCallError with DENIED', {
    timeout: 60_000,
  }, async () => {
    const { ctx, counter } = await start()
    const first = (await runProgram(
      ctx,
      `results = await asyncio.gather(tools.delete_item({"id": 1}), tools.delete_item({"id": 2}), return_exceptions=True)
return [r if isinstance(r, str) else type(r).__name__ + ": " + str(r) for r in results]`,
    )) as ToolFailure
    const approvals = first.pending!.approvals!
    expect(approvals).toHaveLength(2)
    await ctx.approvals.decide(approvals[0]!.ticket, { approve: true, by: 'ana' })
    await ctx.approvals.decide(approvals[1]!.ticket, { approve: false, by: 'ana', note: 'keep 2' })
    const done = await resume(ctx, first.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: { result: ['deleted-1', expect.stringMatching(/^ToolCallError: DENIED: keep 2/)] },
    })
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1 })
  })

  it('a second ask suspends again under the same run ticket; a denied call raises DENIED', {
    timeout: 60_000,
  }, async () => {
    const { ctx, counter } = await start(sqlite())
    const first = (await runProgram(
      ctx,
      `first = await tools.delete_item({"id": 1})
try:
    second = await tools.delete_item({"id": 2})
except ToolCallError as error:
    second = "ToolCallError: " + str(error)
return {"first": first, "second": second}`,
    )) as ToolFailure
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    const again = (await resume(ctx, first.pending!.ticket)) as ToolFailure
    expect(again).toMatchObject({
      error: { info: { code: 'APPROVAL_PENDING' } },
      pending: { ticket: first.pending!.ticket },
    })
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1 })
    await ctx.approvals.decide(again.pending!.approvals![0]!.ticket, {
      approve: false,
      by: 'ana',
      note: 'not today',
    })
    const done = await resume(ctx, first.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: {
        result: { first: 'deleted-1', second: expect.stringMatching(/^ToolCallError: DENIED: not today/) },
      },
    })
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1 })
  })

  it('a program that calls differently on replay fails as diverged at the sub-call, and runs nothing more', {
    timeout: 60_000,
  }, async () => {
    // The memory store lives in its app: a SQLite file carries the run to the changed app.
    const store = sqlite()
    const { ctx, counter } = await start(store)
    const program = `item_id = 2 if "extra" in dir(tools) else 1
await tools.fetch_item({"id": item_id})
return await tools.delete_item({"id": item_id})`
    const first = (await runProgram(ctx, program)) as ToolFailure
    expect(first).toMatchObject({ error: { info: { code: 'APPROVAL_PENDING' } } })
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    await ctx.fiber.dispose()
    const changed = await start(store, counter, true)
    const diverged = await resume(changed.ctx, first.pending!.ticket)
    expect(diverged).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
    expect(diverged.isError && diverged.error.message).toMatch(/the program diverged on replay at sub-call 1/)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1 })
  })
})
