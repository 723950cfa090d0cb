/**
 * Every request `serveMcp` receives is measured (bytes, nodes, depth) before the SDK parses it
 * or a call runs: past a limit it is a JSON-RPC error naming the limit, cheaply. Real HTTP on
 * 127.0.0.1 (the body bounded before it is parsed) and an official SDK client in memory.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import { createApp } from './fixtures/app'
import { registerServedTools, servedStats } from './fixtures/served-tools'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function served() {
  const { ctx } = await createApp()
  await ctx.plugin({ name: 'served', inject: ['tools'], apply: registerServedTools })
  const executed = { calls: 0 }
  ctx.on('tools/pre-execute', async (_exec, next) => {
    executed.calls++
    return next()
  })
  cleanups.push(() => ctx.fiber.dispose())
  return { ctx, executed }
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

async function session(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  })
  await init.text()
  return {
    ...HEADERS,
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': '2025-06-18',
  }
}

/** A `tools/call` of `add` whose arguments hold `keys` keys, written as the SDK writes it (id last). */
function manyKeys(keys: number, id: number): string {
  const args: Record<string, number> = { a: 1, b: 2 }
  for (let i = 0; i < keys; i++) args[`k${i}`] = 1
  return JSON.stringify({
    method: 'tools/call',
    params: { name: 'add', arguments: args },
    jsonrpc: '2.0',
    id,
  })
}

describe('serveMcp request limits over HTTP', () => {
  it('a 3.5 MB tools/call of 300k keys is refused by maxNodes before parsing, answered with its id; the event loop stays responsive', async () => {
    const { ctx, executed } = await served()
    const handle = await serveMcp(ctx, { transport: { port: 0 } })
    cleanups.push(() => handle.close())
    const headers = await session(handle.url!)
    const body = manyKeys(300_000, 7)
    expect(body.length).toBeGreaterThan(3_000_000)
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const response = await fetch(handle.url!, { method: 'POST', headers, body })
    delay.disable()
    expect(response.status).toBe(413)
    const answer = (await response.json()) as { id: unknown; error: { code: number; message: string } }
    expect(answer.id).toBe(7)
    expect(answer.error.code).toBe(ErrorCode.InvalidRequest)
    expect(answer.error.message).toMatch(/more than 100000 JSON nodes \(maxNodes\)/)
    expect(executed.calls).toBe(0)
    // Unbounded, the SDK's parse, the snapshot and validation blocked the loop for seconds.
    expect(delay.max / 1e6).toBeLessThan(1000)
    // The session keeps answering.
    const ok = await fetch(handle.url!, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2 } },
      }),
    })
    expect(await ok.text()).toContain('"value":3')
  })

  it('a body over maxBytes is refused (413) without being kept; a request deeper than maxDepth too', async () => {
    const { ctx, executed } = await served()
    const handle = await serveMcp(ctx, {
      transport: { port: 0 },
      limits: { maxBytes: 64 * 1024, maxDepth: 16 },
    })
    cleanups.push(() => handle.close())
    const headers = await session(handle.url!)
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 'x'.repeat(100_000), b: 1 } },
    })
    const tooBig = await fetch(handle.url!, { method: 'POST', headers, body: big })
    expect(tooBig.status).toBe(413)
    expect(((await tooBig.json()) as { error: { message: string } }).error.message).toMatch(/maxBytes/)
    const deep = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":${'['.repeat(40)}${']'.repeat(40)},"b":1}}}`
    const tooDeep = await fetch(handle.url!, { method: 'POST', headers, body: deep })
    expect(tooDeep.status).toBe(413)
    const answer = (await tooDeep.json()) as { id: unknown; error: { message: string } }
    expect(answer.id).toBe(4)
    expect(answer.error.message).toMatch(/deeper than 16 levels \(maxDepth\)/)
    expect(executed.calls).toBe(0)
  })
})

describe('serveMcp request limits over an SDK transport', () => {
  it('a parsed request past maxNodes is answered with a JSON-RPC error; no call runs', async () => {
    const { ctx, executed } = await served()
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = await serveMcp(ctx, { transport: { connection: serverSide } })
    const client = new Client({ name: 'limits', version: '1' })
    await client.connect(clientSide)
    cleanups.push(
      () => handle.close(),
      () => client.close(),
    )
    const args: Record<string, number> = { a: 1, b: 2 }
    for (let i = 0; i < 150_000; i++) args[`k${i}`] = 1
    const bodies = servedStats.bodies
    const error = await client.callTool({ name: 'add', arguments: args }).then(
      () => undefined,
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(McpError)
    expect((error as McpError).message).toMatch(/maxNodes/)
    expect(executed.calls).toBe(0)
    expect(servedStats.bodies).toBe(bodies)
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({
      value: 5,
    })
  })
})
