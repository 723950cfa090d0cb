/**
 * `serveMcp` driven by the official SDK `Client` (in-memory and Streamable HTTP) and by raw HTTP
 * requests: progress for a client's `progressToken`, protocol version negotiation, concurrent
 * calls, and malformed, unknown, huge or deep requests answered without hurting the session.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createScopedEmitter, defineTool } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import {
  CallToolResultSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type Progress,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import { MAX_HTTP_SESSIONS_PER_CLIENT } from '../src/server/http-listener'
import { createApp } from './fixtures/app'
import { registerServedTools, servedStats } from './fixtures/served-tools'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The served tools plus `steps`, which reports `n` progress steps (the last one message-only). */
async function servedApp() {
  const { ctx } = await createApp()
  await ctx.plugin({ name: 'served', inject: ['tools'], apply: registerServedTools })
  ctx.tools.register(
    defineTool({
      name: 'steps',
      description: 'Report progress n times, then answer.',
      parameters: { n: { type: 'integer', required: true } },
      output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
      execute: async (args, exec) => {
        for (let step = 1; step < args.n; step++) {
          exec.progress({ progress: step * 10, total: args.n * 10, message: `step ${step}` })
          await new Promise((resolve) => setImmediate(resolve))
        }
        exec.progress({ message: 'almost done' })
        return `${args.n} steps`
      },
    }),
  )
  cleanups.push(() => ctx.fiber.dispose())
  return ctx
}

async function inMemoryClient(ctx: Context) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = await serveMcp(ctx, { transport: { connection: serverSide } })
  const client = new Client({ name: 'conformance', version: '1' })
  await client.connect(clientSide)
  cleanups.push(
    () => handle.close(),
    () => client.close(),
  )
  return client
}

async function httpServer(ctx: Context) {
  const handle = await serveMcp(ctx, { transport: { port: 0 } })
  cleanups.push(() => handle.close())
  return handle.url!
}

/** One raw JSON-RPC POST (what a non-SDK client sends). */
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
  const text = await response.text()
  // A JSON-RPC answer comes as JSON or as one SSE `data:` line.
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text
  return { status: response.status, session: response.headers.get('mcp-session-id'), json: JSON.parse(data) }
}

const initialize = (version: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  })

describe('serveMcp: progress', () => {
  it("each tools/progress of the call is sent for the client's progressToken, in order", async () => {
    const client = await inMemoryClient(await servedApp())
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'steps', arguments: { n: 3 } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    })
    expect(result.structuredContent).toEqual({ value: '3 steps' })
    expect(seen).toEqual([
      { progress: 10, total: 30, message: 'step 1' },
      { progress: 20, total: 30, message: 'step 2' },
      // No number of its own: MCP needs one that does not go back, so the last one again.
      { progress: 20, message: 'almost done' },
    ])
    // A tool that never gives a number: its reports are counted.
    const counted: Progress[] = []
    await client.callTool({ name: 'steps', arguments: { n: 1 } }, undefined, {
      onprogress: (progress) => counted.push(progress),
    })
    expect(counted).toEqual([{ progress: 1, message: 'almost done' }])
  })

  it('no progressToken, no progress listener; the listener goes with the last reporting call', async () => {
    const ctx = await servedApp()
    const events = createScopedEmitter(ctx)
    const client = await inMemoryClient(ctx)
    expect((await client.callTool({ name: 'steps', arguments: { n: 2 } })).isError).toBeFalsy()
    expect(events.listening('tools/progress')).toBe(false)
    const seen: Progress[][] = [[], []]
    await Promise.all(
      seen.map((list) =>
        client.callTool({ name: 'steps', arguments: { n: 4 } }, undefined, {
          onprogress: (progress) => list.push(progress),
        }),
      ),
    )
    // Two calls at once: each client request gets only its own call's reports.
    for (const list of seen) expect(list.map((p) => p.progress)).toEqual([10, 20, 30, 30])
    expect(events.listening('tools/progress')).toBe(false)
  })

  it('over Streamable HTTP too (notifications on the request stream)', async () => {
    const url = await httpServer(await servedApp())
    const client = new Client({ name: 'http', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    cleanups.push(() => client.close())
    const seen: number[] = []
    const result = await client.callTool({ name: 'steps', arguments: { n: 3 } }, undefined, {
      onprogress: (progress) => seen.push(progress.progress),
    })
    expect(result.structuredContent).toEqual({ value: '3 steps' })
    expect(seen).toEqual([10, 20, 20])
  })
})

/** Read JSON-RPC messages off an SSE response body, one `data:` line each. */
async function* sseMessages(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffered += value
    let end = buffered.indexOf('\n\n')
    while (end >= 0) {
      const data = /^data: (.*)$/m.exec(buffered.slice(0, end))?.[1]
      buffered = buffered.slice(end + 2)
      if (data !== undefined) yield JSON.parse(data)
      end = buffered.indexOf('\n\n')
    }
  }
}

describe('serveMcp: approval by elicitation over HTTP', () => {
  it("the elicitation travels on the call's own response stream (no standalone GET stream needed)", async () => {
    const ctx = await servedApp()
    ctx.on('tools/pre-execute', async (exec, next) => (exec.name === 'wipe' ? { kind: 'ask' } : next()))
    const url = await httpServer(ctx)
    const init = JSON.parse(initialize('2025-06-18'))
    init.params.capabilities = { elicitation: {} }
    const { session } = await post(url, JSON.stringify(init))
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session!,
      'mcp-protocol-version': '2025-06-18',
    }
    const send = (message: object) => fetch(url, { method: 'POST', headers, body: JSON.stringify(message) })
    expect((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    const bodies = servedStats.bodies
    const stream = sseMessages(
      await send({
        jsonrpc: '2.0',
        id: 'call-1',
        method: 'tools/call',
        params: { name: 'wipe', arguments: {} },
      }),
    )
    const asked = (await stream.next()).value!
    expect(asked.method).toBe('elicitation/create')
    const answered = await send({
      jsonrpc: '2.0',
      id: asked.id,
      result: { action: 'accept', content: { approve: true } },
    })
    expect(answered.status).toBe(202)
    const answer = (await stream.next()).value!
    expect(answer).toMatchObject({ id: 'call-1', result: { structuredContent: { value: 'wiped' } } })
    expect(servedStats.bodies).toBe(bodies + 1)
  })
})

describe('serveMcp: protocol and malformed requests', () => {
  it('negotiates the protocol version: a supported one is kept, an unknown one gets the latest', async () => {
    const url = await httpServer(await servedApp())
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const { status, json, session } = await post(url, initialize(version))
      expect(status).toBe(200)
      expect(session).toMatch(/^[0-9a-f-]{36}$/)
      expect(json.result.protocolVersion).toBe(version)
      expect(json.result.capabilities).toEqual({ tools: { listChanged: true } })
      expect(json.result.serverInfo).toEqual({ name: 'dsh-tools', version: '0.1.0' })
    }
    expect((await post(url, initialize('1999-01-01'))).json.result.protocolVersion).toBe(
      LATEST_PROTOCOL_VERSION,
    )
  })

  it('broken JSON, a non-initialize first request, an unknown session: JSON-RPC errors, the server stays up', async () => {
    const url = await httpServer(await servedApp())
    const broken = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ')
    expect(broken.status).toBe(400)
    expect(broken.json.error.code).toBe(-32700)
    const early = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))
    expect(early.status).toBe(400)
    expect(early.json.error).toBeDefined()
    const stranger = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), {
      'mcp-session-id': '00000000-0000-0000-0000-000000000000',
    })
    expect(stranger.status).toBe(404)
    const client = new Client({ name: 'after', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    cleanups.push(() => client.close())
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({
      value: 2,
    })
  })

  it('first requests that make no session (broken JSON, another method, a refused batch) leave nothing behind', async () => {
    const ctx = await servedApp()
    const events = createScopedEmitter(ctx)
    // Each session holds a gate on every tool call and a list_changed listener.
    const held = () => [
      events.listeners('tools/pre-execute', undefined).length,
      events.listeners('tools/changed', undefined).length,
    ]
    const handle = await serveMcp(ctx, { transport: { port: 0 } })
    const url = handle.url!
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const batch = `[${initialize('2025-06-18')},${initialize('2025-06-18')}]`
    for (const body of [list, '{"jsonrpc":', batch, '[]', 'null']) {
      for (let i = 0; i < 5; i++) expect((await post(url, body)).status).toBeGreaterThanOrEqual(400)
    }
    expect(held()).toEqual([0, 0])
    const { session } = await post(url, initialize('2025-06-18'))
    expect(held()).toEqual([1, 1])
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session! } })
    expect(deleted.status).toBe(200)
    expect(held()).toEqual([0, 0])
    await post(url, initialize('2025-06-18'))
    await post(url, initialize('2025-06-18'))
    await handle.close()
    expect(held()).toEqual([0, 0])
  })

  it(`past ${MAX_HTTP_SESSIONS_PER_CLIENT} sessions of one client a new one is refused (429); none is evicted`, async () => {
    const ctx = await servedApp()
    const events = createScopedEmitter(ctx)
    const url = await httpServer(ctx)
    const ids: string[] = []
    for (let i = 0; i < MAX_HTTP_SESSIONS_PER_CLIENT; i++)
      ids.push((await post(url, initialize('2025-06-18'))).session!)
    const listTools = (id: string) =>
      post(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-06-18',
      })
    const refused = await post(url, initialize('2025-06-18'))
    expect(refused.status).toBe(429)
    expect(events.listeners('tools/changed', undefined)).toHaveLength(MAX_HTTP_SESSIONS_PER_CLIENT)
    for (const id of ids) expect((await listTools(id)).status).toBe(200)
  })

  it('unknown tools and bad arguments are error results; huge and deep ones are refused by the limits; the session keeps answering', async () => {
    const client = await inMemoryClient(await servedApp())
    const bodies = servedStats.bodies
    const cases: [string, Record<string, unknown>][] = [
      ['nope', {}],
      ['add', { a: 'one', b: 2 }],
      ['add', { a: 1 }],
    ]
    for (const [name, args] of cases) {
      const result = await client.callTool({ name, arguments: args })
      expect(result.isError, name).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      expect((result.content as { type: string; text: string }[])[0]?.text).toMatch(/^Error: /)
    }
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ a: 'x'.repeat(8 * 1024 * 1024), b: 1 }, /more than 4194304 characters of strings \(maxBytes\)/],
      [{ a: JSON.parse(`${'['.repeat(50_000)}1${']'.repeat(50_000)}`), b: 1 }, /deeper than 128 levels/],
    ]
    for (const [args, reason] of refused) {
      const error = await client.callTool({ name: 'add', arguments: args }).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect(error).toBeInstanceOf(McpError)
      expect((error as McpError).code).toBe(ErrorCode.InvalidRequest)
      expect((error as McpError).message).toMatch(reason)
    }
    expect(servedStats.bodies).toBe(bodies)
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).structuredContent).toEqual({
      value: 4,
    })
  })

  it('a malformed tools/call (arguments not an object, no name) is JSON-RPC "invalid params"', async () => {
    const client = await inMemoryClient(await servedApp())
    const bodies = servedStats.bodies
    for (const params of [{ name: 'add', arguments: [1, 2] }, { arguments: {} }, { name: 7 }, {}]) {
      const sent = client.request({ method: 'tools/call', params } as never, CallToolResultSchema)
      const error = await sent.then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect(error, JSON.stringify(params)).toBeInstanceOf(McpError)
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams)
    }
    expect(servedStats.bodies).toBe(bodies)
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({
      value: 3,
    })
  })

  it('concurrent calls on one session each get their own answer', async () => {
    const client = await inMemoryClient(await servedApp())
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => client.callTool({ name: 'add', arguments: { a: i, b: 1000 } })),
    )
    expect(results.map((result) => (result.structuredContent as { value: number }).value)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1000),
    )
  })
})
