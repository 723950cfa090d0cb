import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import type { ToolExecution, ToolProgressUpdate } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { call, createApp, inMemoryFixture, loadMcp, textOf } from './fixtures/app'

const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ progress: i + 1, total: n, message: `step ${i + 1}` }))

describe('client plugin: MCP progress → exec.progress (in-memory)', () => {
  it('the tools/progress event sees every notifications/progress of the call, in order, with its execution', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const seen: { execution: ToolExecution; update: ToolProgressUpdate }[] = []
    ctx.on('tools/progress', (execution, update) => {
      seen.push({ execution, update })
    })
    const result = await call(ctx, 'fx__progress', { steps: 5, ms: 0 }, { callId: 'p1' })
    expect(textOf(result)).toBe('done after 5 steps')
    expect(seen.map((entry) => entry.update)).toEqual(steps(5))
    expect(
      seen.every((entry) => entry.execution.callId === 'p1' && entry.execution.name === 'fx__progress'),
    ).toBe(true)
  })

  it('progress of concurrent calls reaches each call’s own execution', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const byCall = new Map<string, number[]>()
    ctx.on('tools/progress', (execution, update) => {
      byCall.set(execution.callId, [...(byCall.get(execution.callId) ?? []), update.progress ?? -1])
    })
    await Promise.all([
      call(ctx, 'fx__progress', { steps: 3, ms: 1 }, { callId: 'a' }),
      call(ctx, 'fx__progress', { steps: 4, ms: 1 }, { callId: 'b' }),
    ])
    expect(byCall.get('a')).toEqual([1, 2, 3])
    expect(byCall.get('b')).toEqual([1, 2, 3, 4])
  })

  it('a progress token is requested only while someone can observe progress (a listener or a timeoutMs)', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const stats = () => fixture.servers[0]!.stats
    await call(ctx, 'fx__echo', { text: 'unobserved' })
    expect(stats().progressTokens).toBe(0)
    const dispose = ctx.on('tools/progress', () => {})
    await call(ctx, 'fx__echo', { text: 'observed' })
    expect(stats().progressTokens).toBe(1)
    dispose()
    await call(ctx, 'fx__echo', { text: 'unobserved again' })
    expect(stats().progressTokens).toBe(1)

    // A configured deadline consumes progress itself (it restarts the deadline).
    const timed = inMemoryFixture()
    await loadMcp(ctx, { name: 'timed', transport: timed.transport, timeoutMs: 30_000 })
    await call(ctx, 'timed__echo', { text: 'x' })
    expect(timed.servers[0]!.stats.progressTokens).toBe(1)
  })

  it('without an observer, a server reporting progress anyway changes nothing', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport, timeoutMs: 30_000 })
    expect(textOf(await call(ctx, 'fx__progress', { steps: 3, ms: 0 }))).toBe('done after 3 steps')
  })
})

describe('client plugin: progress and the timeout policy (resetTimeoutOnProgress)', () => {
  // The MCP tools declare the plugin's timeoutMs; the policy enforces it like any tool's.
  async function setup(reset: boolean) {
    const { ctx } = await createApp()
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: reset })
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport, timeoutMs: 400 })
    return { ctx, fixture }
  }

  it('with resetTimeoutOnProgress, progress still cannot carry a call past timeoutMs (a total bound)', async () => {
    const { ctx } = await setup(true)
    expect(ctx.tools.get('fx__progress')?.timeoutMs).toBe(400)
    const result = await call(ctx, 'fx__progress', { steps: 100, ms: 50 })
    expect(result.isError && result.error.message).toMatch(
      /did not answer tools\/call "progress" within 400ms/,
    )
    expect(textOf(await call(ctx, 'fx__progress', { steps: 3, ms: 20 }))).toBe('done after 3 steps')
  })

  it('without resetTimeoutOnProgress the same progressing call times out (progress is what kept it alive)', async () => {
    const { ctx } = await setup(false)
    const result = await call(ctx, 'fx__progress', { steps: 5, ms: 100 })
    expect(result.isError && result.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it('a silent call times out as TOOL_TIMEOUT; the server is told and the session kept', async () => {
    const { ctx, fixture } = await setup(true)
    const result = await call(ctx, 'fx__slow', { ms: 3_600_000 })
    expect(result.isError && result.error.info?.code).toBe('TOOL_TIMEOUT')
    await expect.poll(() => fixture.servers[0]!.stats.cancelled).toBe(1)
    expect(textOf(await call(ctx, 'fx__echo', { text: 'same session' }))).toBe('same session')
    expect(fixture.servers).toHaveLength(1)
  })

  it('a call that reports progress and then goes silent times out as TOOL_TIMEOUT too', async () => {
    const { ctx, fixture } = await setup(true)
    const result = await call(ctx, 'fx__progress', { steps: 2, ms: 10, hang: true })
    expect(result.isError && result.error.info?.code).toBe('TOOL_TIMEOUT')
    await expect.poll(() => fixture.servers[0]!.stats.cancelled).toBe(1)
    expect(fixture.servers).toHaveLength(1)
  })
})
