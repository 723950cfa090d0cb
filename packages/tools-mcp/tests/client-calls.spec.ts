import { describe, expect, it } from 'vitest'
import { call, createApp, inMemoryFixture, loadMcp, textOf, until } from './fixtures/app'

describe('client plugin: cancellation, progress, deadlines, size', () => {
  it('abort mid-call sends notifications/cancelled to the server and the result is ABORTED', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const controller = new AbortController()
    const pending = call(ctx, 'fx__slow', { ms: 60_000 }, { signal: controller.signal })
    await until(() => fixture.servers[0]!.stats.calls === 1)
    controller.abort()
    const result = await pending
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    await until(() => fixture.servers[0]!.stats.cancelled === 1)
    // The session survives a cancellation.
    expect(textOf(await call(ctx, 'fx__echo', { text: 'still here' }))).toBe('still here')
  })

  it('a server slower than timeoutMs is TOOL_FAILED naming the server, and the next call reconnects', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport, timeoutMs: 200 })
    const result = await call(ctx, 'fx__hang')
    expect(result.isError && result.error.info).toEqual({ name: 'McpServerError', code: 'TOOL_FAILED' })
    expect(result.isError && result.error.message).toMatch(
      /MCP server "fx" did not answer tools\/call "hang" within 200ms/,
    )
    expect(textOf(await call(ctx, 'fx__echo', { text: 'again' }))).toBe('again')
    expect(fixture.servers).toHaveLength(2)
  })

  it('timeoutMs is a total bound: a server reporting progress forever does not keep a call alive', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport, timeoutMs: 400 })
    // 50 ms between reports for 100 s: the deadline between reports is never reached.
    const result = await call(ctx, 'fx__progress', { steps: 2000, ms: 50 })
    expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.isError && result.error.message).toMatch(
      /did not answer tools\/call "progress" within 400ms/,
    )
    // A progressing call that fits in timeoutMs still completes.
    expect(textOf(await call(ctx, 'fx__progress', { steps: 3, ms: 20 }))).toBe('done after 3 steps')
  })

  it('a huge text result comes back whole', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const result = await call(ctx, 'fx__huge', { chars: 5_000_000 })
    expect(result.isError).toBe(false)
    expect(textOf(result)).toHaveLength(5_000_000)
  })

  it('an in-memory server that goes away is TOOL_FAILED and the next call reconnects', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const result = await call(ctx, 'fx__crash')
    expect(result.isError && result.error.message).toMatch(
      /MCP server "fx" crashed or disconnected during tools\/call "crash"/,
    )
    expect(textOf(await call(ctx, 'fx__echo', { text: 'back' }))).toBe('back')
    expect(fixture.servers).toHaveLength(2)
  })
})

describe('client plugin: structured content that is not JSON', () => {
  it.each(['nan', 'infinity', 'cycle', 'date', 'deep'])(
    '%s → a failure result (never a crash), and the session keeps working',
    async (kind) => {
      const { ctx } = await createApp()
      const fixture = inMemoryFixture()
      await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
      const result = await call(ctx, 'fx__weird', { kind })
      if (kind === 'deep') {
        // Deep but valid JSON is a value like any other (the pipeline is stack-safe).
        expect(
          result.isError === false ||
            ['INVALID_OUTPUT', 'TOOL_FAILED'].includes(result.error.info?.code ?? ''),
        ).toBe(true)
      } else {
        expect(result.isError).toBe(true)
        expect(result.isError && ['INVALID_OUTPUT', 'TOOL_FAILED']).toContain(
          result.isError && result.error.info?.code,
        )
      }
      expect(textOf(await call(ctx, 'fx__echo', { text: 'fine' }))).toBe('fine')
    },
  )
})
