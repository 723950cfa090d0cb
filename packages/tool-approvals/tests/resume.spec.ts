import { createScope, type ToolExecutionResult, type ToolFailure } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import type { ApprovalView } from '../src/index'
import { approvalsRuntime, call, deployTool, echoTool, signal } from './fixtures/approvals-runtime'

function pendingOf(result: ToolExecutionResult) {
  expect(result.isError).toBe(true)
  const failure = result as ToolFailure
  expect(failure.error.info?.code).toBe('APPROVAL_PENDING')
  return failure.pending!
}

describe('suspend', () => {
  it('an asked call ends APPROVAL_PENDING with result.pending; no guard and no body ran; tools/result is published', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    let guards = 0
    ctx.tools.register(deployTool(runs))
    ctx.tools.guard(() => {
      guards++
      return undefined
    })
    const published: ToolExecutionResult[] = []
    ctx.on('tools/result', (_execution, result) => {
      published.push(result)
    })
    const events: ApprovalView[] = []
    ctx.on('approvals/pending', (view) => {
      events.push(view)
    })
    const result = await ctx.tools.execute(call('deploy', { target: 'prod' }))
    const pending = pendingOf(result)
    expect(pending).toMatchObject({ tool: 'deploy', agent: '', reason: 'deploys need a person' })
    expect(pending.ticket).toMatch(/^apr\.\.[A-Za-z0-9_-]{24}$/)
    expect(pending.expiresAt).toBeGreaterThan(Date.now())
    expect(result.content[0]).toMatchObject({ type: 'text' })
    const text = (result.content[0] as { text: string }).text
    expect(text).toContain('waiting for a person')
    expect(text).toContain(pending.ticket)
    expect(text).toContain('has not run')
    expect(runs).toEqual([])
    expect(guards).toBe(0)
    expect(published).toEqual([result])
    expect(events.map((view) => [view.ticket, view.status, view.arguments])).toEqual([
      [pending.ticket, 'pending', { target: 'prod' }],
    ])
    const listed = await ctx.approvals.list({ status: 'pending' })
    expect(listed.map((view) => view.ticket)).toEqual([pending.ticket])
    expect((await ctx.approvals.get(pending.ticket))?.tool).toBe('deploy')
  })

  it('an undecided ticket resumes as APPROVAL_PENDING again, and nothing runs', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    expect(pendingOf(await ctx.tools.resume(ticket, { signal: signal() })).ticket).toBe(ticket)
    expect(runs).toEqual([])
  })

  it('throwing and rejecting approvals/* listeners break nothing', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    for (const event of ['approvals/pending', 'approvals/decided'] as const) {
      ctx.on(event, () => {
        throw new Error('listener bug')
      })
      ctx.on(event, async () => {
        throw new Error('async listener bug')
      })
    }
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    expect(await ctx.tools.resume(ticket, { signal: signal() })).toMatchObject({ value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
  })
})

describe('resume', () => {
  it('approved: the guards run, the body runs once, the result is stored; later resumes run nothing', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const guarded: string[] = []
    ctx.tools.register(deployTool(runs))
    ctx.tools.guard((execution) => {
      guarded.push(execution.name)
      return undefined
    })
    const decided: ApprovalView[] = []
    ctx.on('approvals/decided', (view) => {
      decided.push(view)
    })
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    expect(decided.map((view) => [view.status, view.decision?.by])).toEqual([['approved', 'ana']])
    const first = await ctx.tools.resume(ticket, { signal: signal() })
    expect(first).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
    expect(guarded).toEqual(['deploy'])
    const again = await ctx.tools.resume(ticket, { signal: signal() })
    expect(again).toEqual(first)
    expect(Object.isFrozen(again)).toBe(true)
    expect(runs).toEqual(['prod'])
    expect((await ctx.approvals.get(ticket))?.status).toBe('done')
  })

  it('concurrent resumes of one ticket in one process run the body once and agree', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs, { body: () => new Promise((resolve) => setTimeout(resolve, 50)) }))
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ctx.tools.resume(ticket, { signal: signal() })),
    )
    expect(runs).toEqual(['prod'])
    for (const result of results) expect(result).toMatchObject({ isError: false, value: 'deployed prod' })
  })

  it('a guard that denies at resume ends the call DENIED, stored', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    ctx.tools.guard(() => 'frozen for the holidays')
    const result = await ctx.tools.resume(ticket, { signal: signal() })
    expect(result).toMatchObject({
      isError: true,
      error: { message: 'frozen for the holidays', info: { code: 'DENIED' } },
    })
    expect(runs).toEqual([])
    expect((await ctx.approvals.get(ticket))?.status).toBe('done')
  })

  it('denied: DENIED with the reviewer note; a second same decision is a no-op; a conflicting one throws', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: false, by: 'ana', note: 'not on a Friday' })
    const again = await ctx.approvals.decide(ticket, { approve: false, by: 'bob' })
    expect(again.decision).toMatchObject({ approve: false, by: 'ana', note: 'not on a Friday' })
    await expect(ctx.approvals.decide(ticket, { approve: true, by: 'bob' })).rejects.toThrow(
      /already denied by ana; a conflicting decision is refused/,
    )
    const result = await ctx.tools.resume(ticket, { signal: signal() })
    expect(result).toMatchObject({
      isError: true,
      error: { message: 'not on a Friday', info: { code: 'DENIED' } },
    })
    expect(runs).toEqual([])
  })

  it('an approval that expires before its decision or its resume: APPROVAL_EXPIRED, nothing runs', async () => {
    const ctx = await approvalsRuntime({ ttlMs: 30 })
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const first = pendingOf(await ctx.tools.execute(call('deploy', { target: 'a' })))
    const second = pendingOf(await ctx.tools.execute(call('deploy', { target: 'b' }, 'c2')))
    await ctx.approvals.decide(second.ticket, { approve: true, by: 'ana' })
    await new Promise((resolve) => setTimeout(resolve, 60))
    await expect(ctx.approvals.decide(first.ticket, { approve: true, by: 'ana' })).rejects.toThrow(/expired/)
    for (const ticket of [first.ticket, second.ticket]) {
      const result = await ctx.tools.resume(ticket, { signal: signal() })
      expect(result).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_EXPIRED' } } })
    }
    expect(runs).toEqual([])
  })

  it('the tool changed since the approval: APPROVAL_INVALID; the tool gone: UNKNOWN_TOOL', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const dispose = ctx.tools.register(deployTool(runs))
    const { ticket } = pendingOf(await ctx.tools.execute(call('deploy', { target: 'prod' })))
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    dispose()
    const gone = await ctx.tools.resume(ticket, { signal: signal() })
    expect(gone).toMatchObject({ isError: true, error: { info: { code: 'UNKNOWN_TOOL' } } })
    ctx.tools.register(deployTool(runs, { annotations: { destructive: true } }))
    const changed = await ctx.tools.resume(ticket, { signal: signal() })
    expect(changed).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect((changed as ToolFailure).error.message).toMatch(/changed since the call was approved/)
    expect(runs).toEqual([])
  })

  it("agent scopes: a ticket names its agent; a scope resumes only its own agent's tickets; the host resumes any", async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const alice = createScope(ctx, 'alice')
    const bob = createScope(ctx, 'bob')
    alice.ctx.tools.register(deployTool(runs))
    const { ticket, agent } = pendingOf(await alice.ctx.tools.execute(call('deploy', { target: 'prod' })))
    expect(agent).toBe('alice')
    expect((await ctx.approvals.list({ agent: 'bob' })).length).toBe(0)
    expect((await ctx.approvals.list({ agent: 'alice' })).map((view) => view.ticket)).toEqual([ticket])
    await ctx.approvals.decide(ticket, { approve: true, by: 'ana' })
    const refused = await bob.ctx.tools.resume(ticket, { signal: signal() })
    expect(refused).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect(runs).toEqual([])
    expect(await ctx.tools.resume(ticket, { signal: signal() })).toMatchObject({ value: 'deployed prod' })
    expect(runs).toEqual(['prod'])
  })

  it('garbage and unknown tickets are APPROVAL_INVALID', async () => {
    const ctx = await approvalsRuntime()
    ctx.tools.register(echoTool())
    const result = await ctx.tools.resume('apr..nope', { signal: signal() })
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    const unknown = await ctx.tools.resume(`apr..${'A'.repeat(24)}`, { signal: signal() })
    expect((unknown as ToolFailure).error.message).toMatch(/unknown/)
  })
})
