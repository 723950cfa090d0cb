/**
 * `serveMcp` over HTTP ends the work of clients that went away: a call whose client process is
 * killed mid-call is aborted (the tool body sees its signal), a session deleted mid-call aborts
 * its calls, and idle sessions expire. Real HTTP on 127.0.0.1, official SDK clients, real child
 * processes; the served tool's abort counter is the witness.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import { createScopedEmitter } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import type { McpHttpServeOptions } from '../src/server/http-listener'
import { createApp, isAlive, until } from './fixtures/app'
import { registerServedTools, servedStats } from './fixtures/served-tools'

/** The client bundled into one module: a sixth of the start cost of `--import tsx`. */
const DYING_CLIENT = await scriptCommand(
  fileURLToPath(new URL('./fixtures/dying-http-client.ts', import.meta.url)),
)

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

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

/** A client process that has started a `wait` call. */
async function dyingClient(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...DYING_CLIENT, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanups.push(() => {
    if (child.pid !== undefined && isAlive(child.pid)) child.kill('SIGKILL')
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('calling')) resolve()
    })
    child.once('exit', () => reject(new Error('the client exited before calling')))
  })
  return child
}

describe('serveMcp over HTTP: work of clients that went away', () => {
  it('each call of a client process killed mid-call is aborted (the tool body sees its signal)', async () => {
    const { url } = await endpoint()
    const started = servedStats.bodies
    const aborted = servedStats.aborted
    const children = await Promise.all(Array.from({ length: 3 }, () => dyingClient(url)))
    await until(() => servedStats.bodies - started === 3)
    expect(servedStats.aborted - aborted).toBe(0)
    for (const child of children) child.kill('SIGKILL')
    await until(() => servedStats.aborted - aborted === 3)
  }, 30_000)

  it('a session deleted mid-call aborts its calls', async () => {
    const { url, sessions } = await endpoint()
    const transport = new StreamableHTTPClientTransport(new URL(url))
    const client = new Client({ name: 'deleter', version: '1' })
    await client.connect(transport)
    const aborted = servedStats.aborted
    const started = servedStats.bodies
    const pending = client.callTool({ name: 'wait', arguments: {} }).catch(() => undefined)
    await until(() => servedStats.bodies - started === 1)
    await transport.terminateSession()
    await until(() => servedStats.aborted - aborted === 1)
    expect(sessions()).toBe(0)
    await client.close()
    await pending
  })

  it('a session with no open request for idleTimeoutMs is closed; a connected client keeps its own', async () => {
    const { url, sessions } = await endpoint({ idleTimeoutMs: 200 })
    // A client that initialized and went silent (no GET stream, no DELETE): it died or forgot.
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'gone', version: '1' },
        },
      }),
    })
    await init.text()
    const gone = init.headers.get('mcp-session-id')!
    // A connected SDK client (its GET stream open) with a call in flight.
    const busy = new Client({ name: 'busy', version: '1' })
    await busy.connect(new StreamableHTTPClientTransport(new URL(url)))
    cleanups.push(() => busy.close())
    const started = servedStats.bodies
    const call = busy
      .callTool({ name: 'wait', arguments: {} }, undefined, { timeout: 60_000 })
      .catch((e) => e)
    await until(() => servedStats.bodies - started === 1)
    await until(() => sessions() === 1)
    const expired = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': gone,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    })
    expect(expired.status).toBe(404)
    expect((await busy.listTools()).tools.length).toBeGreaterThan(0)
    void call
  })
})
