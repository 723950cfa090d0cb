/**
 * The client plugin over Streamable HTTP against a real HTTP endpoint (`serveMcp` on
 * 127.0.0.1): what one refused request does to the session, and that leaving ends the session
 * on the server (the server's per-session listeners are the counter).
 */
import { createScopedEmitter } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import { call, createApp, loadMcp } from './fixtures/app'
import { registerServedTools, servedStats } from './fixtures/served-tools'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A served runtime on HTTP and how many MCP sessions it holds (one `tools/changed` listener each). */
async function httpEndpoint() {
  const { ctx } = await createApp()
  await ctx.plugin({ name: 'served', inject: ['tools'], apply: registerServedTools })
  const handle = await serveMcp(ctx, { transport: { port: 0 } })
  cleanups.push(
    () => ctx.fiber.dispose(),
    () => handle.close(),
  )
  const events = createScopedEmitter(ctx)
  return { url: handle.url!, sessions: () => events.listeners('tools/changed', undefined).length }
}

describe('client plugin over Streamable HTTP', () => {
  it('a request the server refuses (413: too large) is TOOL_FAILED "refused"; the session stays', async () => {
    const server = await httpEndpoint()
    const { ctx } = await createApp()
    cleanups.push(() => ctx.fiber.dispose())
    await loadMcp(ctx, { name: 'web', transport: { url: server.url } })
    expect(server.sessions()).toBe(1)
    const bodies = servedStats.bodies
    const huge = await call(ctx, 'web__stat', { path: 'x'.repeat(5 * 1024 * 1024) })
    expect(huge.isError && huge.error.info?.code).toBe('TOOL_FAILED')
    expect(huge.isError && huge.error.message).toMatch(
      /^MCP server "web" refused tools\/call "stat" \(HTTP 413\): .*Payload Too Large/,
    )
    expect(servedStats.bodies).toBe(bodies)
    const add = await call(ctx, 'web__add', { a: 1, b: 2 })
    expect(add.isError === false && add.value).toEqual({ value: 3 })
    // The same session answered: no second one was opened.
    expect(server.sessions()).toBe(1)
  })

  it('dispose ends the session on the server (DELETE), for every load of the plugin', async () => {
    const server = await httpEndpoint()
    for (let round = 0; round < 3; round++) {
      const { ctx } = await createApp()
      await loadMcp(ctx, { name: 'web', transport: { url: server.url } })
      expect((await call(ctx, 'web__add', { a: round, b: 1 })).isError).toBe(false)
      expect(server.sessions()).toBe(1)
      await ctx.fiber.dispose()
      expect(server.sessions()).toBe(0)
    }
  })
})
