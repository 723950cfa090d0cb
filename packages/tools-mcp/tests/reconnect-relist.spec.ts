import { describe, expect, it } from 'vitest'
import { call, createApp, inMemoryFixture, loadMcp, registeredNames, textOf } from './fixtures/app'
import type { FixtureOptions } from './fixtures/fixture-server'

const obj = (properties: Record<string, object>, required: string[]) => ({
  type: 'object',
  properties,
  required,
})

/** The restarted server: `echo` and `wipe` gone, `fresh` new, `stats` with a changed schema; 2 tools a page. */
const RESTARTED: FixtureOptions = {
  pageSize: 2,
  omit: ['echo', 'wipe', 'stats'],
  extraTools: [
    {
      name: 'fresh',
      description: 'New after the restart.',
      inputSchema: obj({ text: { type: 'string' } }, ['text']),
    },
    {
      name: 'stats',
      description: 'Counters, now with a required flag.',
      inputSchema: obj({ verbose: { type: 'boolean' } }, ['verbose']),
    },
  ],
}

/** How the first session ends: a crash, or a hang past timeoutMs (the session is dropped). */
const ENDINGS = [
  { how: 'crash', timeoutMs: undefined },
  { how: 'hang', timeoutMs: 300 },
] as const

describe('client plugin: a reconnect re-lists the tools (without list_changed)', () => {
  it.each(ENDINGS)(
    'after a $how, the registry matches the restarted server’s list',
    async ({ how, timeoutMs }) => {
      const { ctx } = await createApp()
      const fixture = inMemoryFixture({ pageSize: 3 })
      await loadMcp(
        ctx,
        timeoutMs === undefined
          ? { name: 'fx', transport: fixture.transport }
          : { name: 'fx', transport: fixture.transport, timeoutMs },
      )
      expect(registeredNames(ctx, 'fx__')).toContain('fx__echo')
      expect(registeredNames(ctx, 'fx__')).not.toContain('fx__fresh')

      fixture.restartWith(RESTARTED)
      const ended = await call(ctx, `fx__${how}`)
      expect(ended.isError && ended.error.info?.code).toBe('TOOL_FAILED')

      // The next use reconnects; the call waits for the re-list, so it already sees the new set.
      expect(textOf(await call(ctx, 'fx__pid'))).toMatch(/^\d+$/)
      expect(fixture.servers).toHaveLength(2)
      const expected = ['fresh', 'stats', ...(await baseNamesExcept(RESTARTED.omit!))]
        .map((n) => `fx__${n}`)
        .sort()
      expect(registeredNames(ctx, 'fx__')).toEqual(expected)

      const removed = await call(ctx, 'fx__echo', { text: 'gone?' })
      expect(removed.isError && removed.error.info?.code).toBe('UNKNOWN_TOOL')
      expect(textOf(await call(ctx, 'fx__fresh', { text: 'new' }))).toBe('new')
      // The changed schema applies: the old arguments are refused before reaching the server.
      const changed = await call(ctx, 'fx__stats', {})
      expect(changed.isError && changed.error.info?.code).toBe('INVALID_ARGS')
      expect(fixture.servers[1]!.stats.byTool.stats).toBeUndefined()
    },
  )

  it('the call that triggers the reconnect, to a tool the restarted server dropped, is UNKNOWN_TOOL and never sent', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    fixture.restartWith(RESTARTED)
    await call(ctx, 'fx__crash')
    const result = await call(ctx, 'fx__echo', { text: 'hello?' })
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(result.isError && result.error.message).toMatch(
      /MCP server "fx" no longer lists "echo" after reconnecting/,
    )
    expect(fixture.servers).toHaveLength(2)
    expect(fixture.servers[1]!.stats.byTool.echo).toBeUndefined()
    expect(registeredNames(ctx, 'fx__')).not.toContain('fx__echo')
  })

  it('the call that triggers the reconnect, to a tool whose schema changed, still goes to the server', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    fixture.restartWith(RESTARTED)
    await call(ctx, 'fx__crash')
    // Validated against the schema it was dispatched with; the restarted server still lists it.
    const result = await call(ctx, 'fx__stats', {})
    expect(result.isError).toBe(false)
    expect(fixture.servers[1]!.stats.byTool.stats).toBe(1)
    // From now on the new schema applies.
    const next = await call(ctx, 'fx__stats', {})
    expect(next.isError && next.error.info?.code).toBe('INVALID_ARGS')
  })

  it('a restarted server with the same tools keeps the registrations (no re-registration churn)', async () => {
    const { ctx } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const before = ctx.tools.get('fx__echo')
    let changes = 0
    ctx.on('tools/changed', () => {
      changes++
    })
    await call(ctx, 'fx__crash')
    expect(textOf(await call(ctx, 'fx__echo', { text: 'same' }))).toBe('same')
    expect(fixture.servers).toHaveLength(2)
    expect(ctx.tools.get('fx__echo')).toBe(before)
    expect(changes).toBe(0)
  })

  it('a failing re-list is a warning; the earlier registrations stay and calls go on', async () => {
    const { ctx, warnings } = await createApp()
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const before = registeredNames(ctx, 'fx__')
    fixture.restartWith({ failList: true })
    await call(ctx, 'fx__crash')
    expect(textOf(await call(ctx, 'fx__echo', { text: 'on' }))).toBe('on')
    expect(fixture.servers).toHaveLength(2)
    expect(registeredNames(ctx, 'fx__')).toEqual(before)
    expect(warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/re-listing tools after reconnecting failed: .*tools\/list is broken today/),
    )
  })
})

/** The fixture's base tool names minus `omit` (read from a throwaway in-memory server's list). */
async function baseNamesExcept(omit: readonly string[]): Promise<string[]> {
  const { ctx } = await createApp()
  const fixture = inMemoryFixture({ omit })
  await loadMcp(ctx, { name: 'base', transport: fixture.transport })
  return registeredNames(ctx, 'base__').map((name) => name.slice('base__'.length))
}
