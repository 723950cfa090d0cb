/**
 * Who may use a `serveMcp` HTTP endpoint: browser `Origin`s (DNS rebinding) refused unless
 * allowed, `auth` (a bearer token or a verify hook) checked on every request and required
 * beyond loopback, and per-client session limits so one client cannot push out another's
 * session. Real HTTP on 127.0.0.1.
 */
import { createScopedEmitter } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import type { McpHttpServeOptions } from '../src/server/http-listener'
import { createApp } from './fixtures/app'
import { registerServedTools } from './fixtures/served-tools'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TOKEN = 'a-long-enough-test-token-0123456789'

async function endpoint(options: Partial<McpHttpServeOptions> = {}) {
  const { ctx } = await createApp()
  await ctx.plugin({ name: 'served', inject: ['tools'], apply: registerServedTools })
  const handle = await serveMcp(ctx, { transport: { port: 0, ...options } })
  cleanups.push(
    () => ctx.fiber.dispose(),
    () => handle.close(),
  )
  const events = createScopedEmitter(ctx)
  return { url: handle.url!, sessions: () => events.listeners('tools/changed', undefined).length }
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
})
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  })
  await response.text()
  return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined }
}

const inSession = (session: string, headers: Record<string, string> = {}) => ({
  'mcp-session-id': session,
  'mcp-protocol-version': '2025-06-18',
  ...headers,
})

describe('serveMcp over HTTP: Origin', () => {
  it('a foreign Origin is refused with 403; loopback origins and non-browser clients pass', async () => {
    const { url, sessions } = await endpoint()
    const port = new URL(url).port
    for (const origin of ['http://evil.example', 'https://127.0.0.1.evil.example', 'null'])
      expect((await post(url, INITIALIZE, { origin })).status, origin).toBe(403)
    expect(sessions()).toBe(0)
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'http://[::1]:8080'])
      expect((await post(url, INITIALIZE, { origin })).status, origin).toBe(200)
    expect((await post(url, INITIALIZE)).status).toBe(200)
  })

  it('allowedOrigins replaces the loopback default', async () => {
    const { url } = await endpoint({ allowedOrigins: ['https://app.example'] })
    expect((await post(url, INITIALIZE, { origin: 'https://app.example' })).status).toBe(200)
    expect((await post(url, INITIALIZE, { origin: 'http://localhost' })).status).toBe(403)
  })
})

describe('serveMcp over HTTP: auth', () => {
  it('with a token, every request needs `Authorization: Bearer <token>` (401 otherwise)', async () => {
    const { url, sessions } = await endpoint({ auth: { token: TOKEN } })
    expect((await post(url, INITIALIZE)).status).toBe(401)
    expect((await post(url, INITIALIZE, { authorization: 'Bearer wrong' })).status).toBe(401)
    expect(sessions()).toBe(0)
    const { status, session } = await post(url, INITIALIZE, { authorization: `Bearer ${TOKEN}` })
    expect(status).toBe(200)
    expect((await post(url, LIST, inSession(session!))).status).toBe(401)
    expect((await post(url, LIST, inSession(session!, { authorization: `Bearer ${TOKEN}` }))).status).toBe(
      200,
    )
  })

  it('a verify hook decides (a hook that throws refuses)', async () => {
    const { url } = await endpoint({
      auth: {
        verify: (req) => {
          if (req.headers['x-boom'] !== undefined) throw new Error('boom')
          return req.headers['x-key'] === 'open-sesame'
        },
      },
    })
    expect((await post(url, INITIALIZE, { 'x-key': 'open-sesame' })).status).toBe(200)
    expect((await post(url, INITIALIZE, { 'x-key': 'nope' })).status).toBe(401)
    expect((await post(url, INITIALIZE, { 'x-key': 'open-sesame', 'x-boom': '1' })).status).toBe(401)
  })

  it('listening beyond loopback without auth refuses to start; with auth it starts', async () => {
    const { ctx } = await createApp()
    cleanups.push(() => ctx.fiber.dispose())
    await expect(serveMcp(ctx, { transport: { port: 0, host: '0.0.0.0' } })).rejects.toThrow(/requires auth/)
    const handle = await serveMcp(ctx, { transport: { port: 0, host: '0.0.0.0', auth: { token: TOKEN } } })
    cleanups.push(() => handle.close())
    const port = new URL(handle.url!).port
    const local = `http://127.0.0.1:${port}/mcp`
    expect((await post(local, INITIALIZE)).status).toBe(401)
    expect((await post(local, INITIALIZE, { authorization: `Bearer ${TOKEN}` })).status).toBe(200)
  })
})

describe('serveMcp over HTTP: sessions per client', () => {
  it("one client's 64 initialize requests cannot evict another client's session", async () => {
    // Two identities: each bearer credential the hook accepts is its own client.
    const { url, sessions } = await endpoint({
      auth: { verify: (req) => ['Bearer alice', 'Bearer mallory'].includes(req.headers.authorization ?? '') },
      maxSessionsPerClient: 4,
    })
    const alice = { authorization: 'Bearer alice' }
    const { session } = await post(url, INITIALIZE, alice)
    const statuses: number[] = []
    for (let i = 0; i < 64; i++)
      statuses.push((await post(url, INITIALIZE, { authorization: 'Bearer mallory' })).status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(4)
    expect(statuses.filter((status) => status === 429)).toHaveLength(60)
    expect(sessions()).toBe(5)
    expect((await post(url, LIST, inSession(session!, alice))).status).toBe(200)
    // Another client cannot use (or probe) alice's session.
    expect((await post(url, LIST, inSession(session!, { authorization: 'Bearer mallory' }))).status).toBe(404)
  })

  it('past maxSessions in all, a new session is refused (503); live ones stay', async () => {
    const { url, sessions } = await endpoint({ maxSessions: 3 })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await post(url, INITIALIZE)).session!)
    expect((await post(url, INITIALIZE)).status).toBe(503)
    expect(sessions()).toBe(3)
    for (const id of ids) expect((await post(url, LIST, inSession(id))).status).toBe(200)
  })
})
