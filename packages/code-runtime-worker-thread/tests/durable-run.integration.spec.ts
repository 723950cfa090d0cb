// Code Mode suspend and replay in one process (SPEC §13.3) on the memory store, with real
// QuickJS workers: the separate-process tests on SQLite and PostgreSQL are in
// durable-run-processes.integration.spec.ts.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolFailure } from '@dsh/tools-core'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { bodyRuns, durableApp, resume, runProgram } from './fixtures/durable-app'

const dir = mkdtempSync(join(tmpdir(), 'dsh-durable-run-'))
let files = 0
let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function start(engine: 'quickjs' | 'node-vm' = 'quickjs') {
  const counter = join(dir, `bodies-${++files}.txt`)
  app = await durableApp('memory', counter, { engine })
  return { ctx: app, counter }
}

describe('a run_code program that asks for approval, in one process', () => {
  it('suspends with the run ticket and the nested approval; resumes once decided; each body ran once', async () => {
    const { ctx, counter } = await start()
    const code = `
      const [a, b] = await Promise.all([tools.fetch_item({ id: 1 }), tools.fetch_item({ id: 2 })])
      console.log('fetched', a, b, Date.now() > 0)
      const deleted = await tools.delete_item({ id: 1 })
      console.log('then', deleted)
      return { a, b, deleted, c: await tools.fetch_item({ id: 3 }) }`
    const first = (await runProgram(ctx, code)) as ToolFailure
    expect(first).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_PENDING' } } })
    const pending = first.pending!
    expect(pending.ticket).toMatch(/^run\./)
    expect(pending.approvals).toHaveLength(1)
    expect(pending.approvals![0]).toMatchObject({ tool: 'delete_item', reason: 'deleting needs a person' })
    expect(first.content[0]).toMatchObject({ text: expect.stringContaining('fetched item-1 item-2 true') })
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1 })

    const undecided = await resume(ctx, pending.ticket)
    expect(undecided).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_PENDING' } } })
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1 })

    await ctx.approvals.decide(pending.approvals![0]!.ticket, { approve: true, by: 'ana' })
    const done = await resume(ctx, pending.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: {
        logs: ['then deleted-1'],
        result: { a: 'item-1', b: 'item-2', deleted: 'deleted-1', c: 'item-3' },
      },
    })
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1, 'delete 1': 1, 'fetch 3': 1 })
    expect(await resume(ctx, pending.ticket)).toEqual(done)
    expect(bodyRuns(counter)).toEqual({ 'fetch 1': 1, 'fetch 2': 1, 'delete 1': 1, 'fetch 3': 1 })
  })

  it('a Promise.all sibling still running when its neighbour asked settles into the ledger and is not run again', async () => {
    const { ctx, counter } = await start()
    const first = (await runProgram(
      ctx,
      `return await Promise.all([tools.fetch_item({ id: 5 }), tools.delete_item({ id: 5 })])`,
    )) as ToolFailure
    expect(first).toMatchObject({ error: { info: { code: 'APPROVAL_PENDING' } } })
    expect(bodyRuns(counter)).toEqual({ 'fetch 5': 1 })
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    expect(await resume(ctx, first.pending!.ticket)).toMatchObject({
      isError: false,
      value: { result: ['item-5', 'deleted-5'] },
    })
    expect(bodyRuns(counter)).toEqual({ 'fetch 5': 1, 'delete 5': 1 })
  })

  it.each(['quickjs', 'node-vm'] as const)(
    'replays Date.now, new Date() and Math.random with the values the suspended run read (%s)',
    async (engine) => {
      const { ctx } = await start(engine)
      const code = `
      const t = Date.now(), r = Math.random(), d = new Date().getTime()
      console.log(JSON.stringify({ t, r, d }))
      await tools.delete_item({ id: Math.floor(r * 1e9) })
      return { t, r, d, later: Date.now() >= t }`
      const first = (await runProgram(ctx, code)) as ToolFailure
      const seen = JSON.parse(
        /\{"t".*\}/.exec(first.content[0]!.type === 'text' ? first.content[0]!.text : '')![0],
      )
      await new Promise((resolve) => setTimeout(resolve, 30))
      await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
      const done = await resume(ctx, first.pending!.ticket)
      expect(done).toMatchObject({ isError: false, value: { logs: [], result: { ...seen, later: true } } })
    },
  )

  it('a denied call throws ToolCallError with DENIED in the program', async () => {
    const { ctx, counter } = await start()
    const first = (await runProgram(
      ctx,
      `try { await tools.delete_item({ id: 7 }) } catch (e) { return [e.name, e.toolName, e.message] }`,
    )) as ToolFailure
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, {
      approve: false,
      by: 'ana',
      note: 'keep it',
    })
    const done = await resume(ctx, first.pending!.ticket)
    expect(done).toMatchObject({
      isError: false,
      value: { result: ['ToolCallError', 'delete_item', expect.stringMatching(/^DENIED: keep it/)] },
    })
    expect(bodyRuns(counter)).toEqual({})
  })

  it('a tool named __proto__ is fingerprinted like any other: changed before the resume, the run is refused', async () => {
    const { ctx, counter } = await start()
    const proto = (parameters: Record<string, { type: 'string' }>) =>
      defineTool({
        name: '__proto__',
        description: 'A tool with an awkward name.',
        parameters,
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: () => 'ran',
      })
    const registered = ctx.tools.register(proto({}))
    const first = (await runProgram(
      ctx,
      `await tools['__proto__']({})\nreturn await tools.delete_item({ id: 1 })`,
    )) as ToolFailure
    expect(first).toMatchObject({ error: { info: { code: 'APPROVAL_PENDING' } } })
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    registered()
    ctx.tools.register(proto({ extra: { type: 'string' } }))
    const refused = await resume(ctx, first.pending!.ticket)
    expect(refused).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect(refused.isError && refused.error.message).toMatch(/tool `__proto__` changed/)
    expect(bodyRuns(counter)).toEqual({})
  })

  it('approvals asked together (Promise.all) are decided together and resume once; a second ask suspends again under the same ticket', async () => {
    const { ctx, counter } = await start()
    const code = `
      const both = await Promise.all([tools.delete_item({ id: 1 }), tools.delete_item({ id: 2 })])
      const third = await tools.delete_item({ id: 3 })
      return [...both, third]`
    const first = (await runProgram(ctx, code)) as ToolFailure
    const ticket = first.pending!.ticket
    expect(first.pending!.approvals!.map((a) => a.tool)).toEqual(['delete_item', 'delete_item'])
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    expect(await resume(ctx, ticket)).toMatchObject({ error: { info: { code: 'APPROVAL_PENDING' } } })
    expect(bodyRuns(counter)).toEqual({})
    await ctx.approvals.decide(first.pending!.approvals![1]!.ticket, { approve: true, by: 'ana' })
    const second = (await resume(ctx, ticket)) as ToolFailure
    expect(second).toMatchObject({ error: { info: { code: 'APPROVAL_PENDING' } }, pending: { ticket } })
    expect(second.pending!.approvals).toHaveLength(1)
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1, 'delete 2': 1 })
    await ctx.approvals.decide(second.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    expect(await resume(ctx, ticket)).toMatchObject({
      isError: false,
      value: { result: ['deleted-1', 'deleted-2', 'deleted-3'] },
    })
    expect(bodyRuns(counter)).toEqual({ 'delete 1': 1, 'delete 2': 1, 'delete 3': 1 })
  })
  it('two resumes of one run at once: the program replays once, both get its result', async () => {
    const { ctx, counter } = await start()
    const first = (await runProgram(
      ctx,
      `await tools.delete_item({ id: 4 }); return await tools.fetch_item({ id: 4 })`,
    )) as ToolFailure
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    const [a, b] = await Promise.all([resume(ctx, first.pending!.ticket), resume(ctx, first.pending!.ticket)])
    expect(a).toMatchObject({ isError: false, value: { result: 'item-4' } })
    expect(b).toEqual(a)
    expect(bodyRuns(counter)).toEqual({ 'delete 4': 1, 'fetch 4': 1 })
  })

  it('a run whose resuming process died (lease expired) ends OUTCOME_UNKNOWN and is not run again', async () => {
    const { ctx, counter } = await start()
    const first = (await runProgram(ctx, `return await tools.delete_item({ id: 6 })`)) as ToolFailure
    await ctx.approvals.decide(first.pending!.approvals![0]!.ticket, { approve: true, by: 'ana' })
    const ref = { kind: 'run', agent: '', key: first.pending!.ticket } as const
    const record = (await ctx.toolStore.get(ref))!
    // What a process that claimed the run and then died leaves behind: `running`, a dead lease.
    await ctx.toolStore.update(ref, record.version, {
      state: 'running',
      lease: { owner: 'dead-host/1/x', until: Date.now() - 1 },
      updatedAt: Date.now(),
    })
    const result = await resume(ctx, first.pending!.ticket)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'OUTCOME_UNKNOWN' } } })
    expect(await resume(ctx, first.pending!.ticket)).toEqual(result)
    expect(bodyRuns(counter)).toEqual({})
  })
})
