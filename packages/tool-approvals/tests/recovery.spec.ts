import {
  MemoryToolStore,
  type StoredRecordRef,
  StoreUnavailableError,
  type ToolFailure,
  type ToolStateStore,
} from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { approvalsRuntime, call, deployTool, echoTool, signal } from './fixtures/approvals-runtime'

type Ctx = Awaited<ReturnType<typeof approvalsRuntime>>

async function approved(ctx: Ctx) {
  const result = (await ctx.tools.execute(call('deploy', { target: 'prod' }))) as ToolFailure
  const ticket = result.pending!.ticket
  await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
  return ticket
}

/** What a process that claimed the ticket and then died leaves: `running`, a lease. */
async function claimedBy(ctx: Ctx, ticket: string, until: number) {
  const store = ctx.get('toolStore') as ToolStateStore
  const ref: StoredRecordRef = { kind: 'approval', agent: '', key: ticket }
  const record = (await store.get(ref))!
  const claimed = await store.update(ref, record.version, {
    state: 'running',
    lease: { owner: 'a-dead-process', until },
    updatedAt: Date.now(),
  })
  expect(claimed).toBeDefined()
}

describe('a process that died while the body ran (its lease expired)', () => {
  it('a tool not annotated idempotent ends OUTCOME_UNKNOWN, stored, and never runs', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const ticket = await approved(ctx)
    await claimedBy(ctx, ticket, Date.now() - 1)
    const result = await ctx.tools.resume(ticket, { signal: signal() })
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'OUTCOME_UNKNOWN' } } })
    expect((result as ToolFailure).error.message).toMatch(/not annotated `idempotent`/)
    expect(await ctx.tools.resume(ticket, { signal: signal() })).toEqual(result)
    expect(runs).toEqual([])
  })

  it('an idempotent tool runs again, once', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs, { annotations: { idempotent: true } }))
    const ticket = await approved(ctx)
    await claimedBy(ctx, ticket, Date.now() - 1)
    const results = await Promise.all([
      ctx.tools.resume(ticket, { signal: signal() }),
      ctx.tools.resume(ticket, { signal: signal() }),
    ])
    for (const result of results) expect(result).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
  })

  it('a live lease held elsewhere: resume waits for the stored result, bounded by its signal', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const ticket = await approved(ctx)
    await claimedBy(ctx, ticket, Date.now() + 60_000)
    const controller = new AbortController()
    const waiting = ctx.tools.resume(ticket, { signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    const result = await waiting
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED_BEFORE_DISPATCH' } } })
    expect(runs).toEqual([])
  })

  it('a lease renewed while a long body runs is not taken over', async () => {
    const ctx = await approvalsRuntime({ leaseMs: 40 })
    const runs: string[] = []
    ctx.tools.register(deployTool(runs, { body: () => new Promise((resolve) => setTimeout(resolve, 200)) }))
    const ticket = await approved(ctx)
    const first = ctx.tools.resume(ticket, { signal: signal() })
    await new Promise((resolve) => setTimeout(resolve, 120))
    const second = await ctx.tools.resume(ticket, { signal: signal() })
    expect(second).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(await first).toEqual(second)
    expect(runs).toEqual(['prod'])
  })
})

/** A store that cannot be reached. */
class DownStore implements ToolStateStore {
  readonly label = 'postgres db.internal:5432/tools'
  private down(): Promise<never> {
    return Promise.reject(new StoreUnavailableError(`tool state store ${this.label}: connection refused`))
  }
  create = () => this.down()
  get = () => this.down()
  update = () => this.down()
  list = () => this.down()
  sweep = () => this.down()
}

describe('the store unreachable', () => {
  it('an asked call ends STORE_UNAVAILABLE naming the store; no guard and no body run', async () => {
    const ctx = await approvalsRuntime({}, new DownStore())
    const runs: string[] = []
    let guards = 0
    ctx.tools.register(deployTool(runs))
    ctx.tools.guard(() => {
      guards++
      return undefined
    })
    const result = await ctx.tools.execute(call('deploy', { target: 'prod' }))
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'STORE_UNAVAILABLE' } } })
    expect((result as ToolFailure).error.message).toContain('db.internal:5432')
    expect(runs).toEqual([])
    expect(guards).toBe(0)
    const resumed = await ctx.tools.resume(`apr..${'A'.repeat(24)}`, { signal: signal() })
    expect(resumed).toMatchObject({ isError: true, error: { info: { code: 'STORE_UNAVAILABLE' } } })
  })

  it('resume without a durable approval service says so', async () => {
    const { Context } = await import('@deepseek-ai/cordis')
    const { default: ToolRuntime } = await import('@dsh/tools-core')
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(MemoryToolStore)
    const result = await ctx.tools.resume(`apr..${'A'.repeat(24)}`, { signal: signal() })
    expect((result as ToolFailure).error.message).toMatch(/no durable approval service/)
  })
})

describe('a resume aborted before the body started', () => {
  it('gives the ticket back: a later resume runs the call', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const ticket = await approved(ctx)
    const controller = new AbortController()
    // A guard that aborts the resume's own signal: the call is past its claim, before its body.
    ctx.tools.guard(() => {
      controller.abort()
      return undefined
    })
    const aborted = await ctx.tools.resume(ticket, { signal: controller.signal })
    expect(aborted).toMatchObject({ isError: true, error: { info: { code: 'ABORTED_BEFORE_DISPATCH' } } })
    expect((await ctx.approvals.get(ticket))?.status).toBe('approved')
    expect(await ctx.tools.resume(ticket, { signal: signal() })).toMatchObject({ value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
  })
})

describe('executeBatch', () => {
  it('an asked call suspends alone; its siblings complete', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    ctx.tools.register(echoTool())
    const results = await ctx.tools.executeBatch([
      call('echo', { text: 'one' }, 'a'),
      call('deploy', { target: 'prod' }, 'b'),
      call('echo', { text: 'two' }, 'c'),
    ])
    expect(results.map((result) => (result.isError ? result.error.info?.code : result.value))).toEqual([
      'one',
      'APPROVAL_PENDING',
      'two',
    ])
    const ticket = (results[1] as ToolFailure).pending!.ticket
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    expect(await ctx.tools.resume(ticket, { signal: signal() })).toMatchObject({ value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
  })
})
