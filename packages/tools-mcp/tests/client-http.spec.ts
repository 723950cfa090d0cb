/**
 * The client plugin over Streamable HTTP against a real HTTP endpoint (`serveMcp` on
 * 127.0.0.1): what one refused request does to the session, and that leaving ends the session
 * on the server (the server's per-session listeners are the counter).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createScopedEmitter } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import { call, createApp, loadMcp, until } from './fixtures/app'
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
  return { url: handle.url!, handle, sessions: () => events.listeners('tools/changed', undefined).length }
}

/**
 * A bare-bones MCP endpoint in plain JSON over HTTP (no SDK): one tool, and a DELETE it receives
 * but never answers, as a wedged server would.
 */
async function endpointIgnoringDelete() {
  const seen = { deletes: 0 }
  const hung: ServerResponse[] = []
  const answer = (res: ServerResponse, id: unknown, result: object) => {
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'only-session' })
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
  }
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'DELETE') {
      seen.deletes++
      hung.push(res)
      return
    }
    if (req.method !== 'POST') return void res.writeHead(405).end()
    let body = ''
    for await (const chunk of req) body += chunk
    const message = JSON.parse(body) as {
      id?: unknown
      method: string
      params?: { protocolVersion?: string }
    }
    if (message.id === undefined) return void res.writeHead(202).end()
    if (message.method === 'initialize')
      return answer(res, message.id, {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'plain', version: '1' },
      })
    if (message.method === 'tools/list')
      return answer(res, message.id, { tools: [{ name: 'noop', inputSchema: { type: 'object' } }] })
    return answer(res, message.id, { content: [{ type: 'text', text: 'ok' }] })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    for (const res of hung) res.destroy()
    http.closeAllConnections()
    await new Promise((resolve) => http.close(resolve))
  })
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, seen }
}

describe('client plugin over Streamable HTTP', () => {
  it('dispose does not wait on a server that never answers the DELETE', async () => {
    const server = await endpointIgnoringDelete()
    const { ctx } = await createApp()
    const fiber = await loadMcp(ctx, { name: 'plain', transport: { url: server.url } })
    const ok = await call(ctx, 'plain__noop')
    expect(ok.isError === false && ok.value).toEqual([{ type: 'text', text: 'ok' }])
    await fiber.dispose()
    expect(server.seen.deletes).toBe(1)
    expect(ctx.tools.get('plain__noop')).toBeUndefined()
    await ctx.fiber.dispose()
  })

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
      /^MCP server "web" refused tools\/call "stat" \(HTTP 413\): .*more than 4194304 bytes \(maxBytes\)/,
    )
    expect(servedStats.bodies).toBe(bodies)
    const add = await call(ctx, 'web__add', { a: 1, b: 2 })
    expect(add.isError === false && add.value).toEqual({ value: 3 })
    // The same session answered: no second one was opened.
    expect(server.sessions()).toBe(1)
  })

  it('a server that goes away mid-call fails the call as a disconnect (not at a deadline: none is set)', async () => {
    const server = await httpEndpoint()
    const { ctx } = await createApp()
    cleanups.push(() => ctx.fiber.dispose())
    await loadMcp(ctx, { name: 'web', transport: { url: server.url } })
    const bodies = servedStats.bodies
    const pending = call(ctx, 'web__wait')
    await until(() => servedStats.bodies > bodies)
    await server.handle.close()
    const result = await pending
    expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.isError && result.error.message).toMatch(
      /^MCP server "web" crashed or disconnected during tools\/call "wait"/,
    )
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
