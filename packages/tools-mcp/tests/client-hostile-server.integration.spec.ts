/**
 * The client plugin against a hostile server (the official SDK `Server`) as a stdio child
 * process and over Streamable HTTP on 127.0.0.1: a `list_changed` flood is coalesced, a result
 * or a tools/list entry past the limits is refused on its own, progress does not carry a call
 * past `timeoutMs`, and a call cut off by disposal is `ABORTED`.
 */
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpTransportConfig } from '../src/index'
import { call, createApp, loadMcp, textOf } from './fixtures/app'
import { createHostileServer, type HostileStats } from './fixtures/hostile-server'

/** `list_changed` notifications in the flood: 20 times the bound below in CI, 200 with `DSH_LONG=1`. */
const FLOOD = process.env.DSH_LONG === '1' ? 20_000 : 2_000
/** The stdio server bundled into one module: a sixth of the start cost of `--import tsx`. */
const HOSTILE_STDIO = await scriptCommand(
  fileURLToPath(new URL('./fixtures/hostile-stdio.ts', import.meta.url)),
)

const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** One hostile server and a way to read its counters. */
interface Hostile {
  readonly transport: McpTransportConfig
  stats(ctx: Parameters<typeof call>[0], prefix: string): Promise<HostileStats>
}

async function statsTool(ctx: Parameters<typeof call>[0], prefix: string): Promise<HostileStats> {
  return JSON.parse(textOf(await call(ctx, `${prefix}__stats`)))
}

function stdioHostile(monster = false): Hostile {
  return {
    transport: {
      command: process.execPath,
      args: HOSTILE_STDIO,
      env: monster ? { HOSTILE_MONSTER: '1' } : {},
    },
    stats: statsTool,
  }
}

/** The hostile server over Streamable HTTP: one SDK server per session, on 127.0.0.1. */
async function httpHostile(monster = false): Promise<Hostile> {
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? transports.get(id) : undefined
    if (transport === undefined) {
      const { server } = createHostileServer({ monster })
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => {
          transports.set(session, transport!)
        },
      })
      await server.connect(transport)
    }
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    for (const transport of transports.values()) await transport.close()
    http.closeAllConnections()
    await new Promise((resolve) => http.close(resolve))
  })
  const { port } = http.address() as AddressInfo
  return { transport: { url: `http://127.0.0.1:${port}/mcp` }, stats: statsTool }
}

const KINDS = [
  ['a stdio child', stdioHostile],
  ['Streamable HTTP', httpHostile],
] as const

describe.each(KINDS)('client plugin against a hostile server (%s)', (_kind, hostile) => {
  it(`${FLOOD.toLocaleString('en')} list_changed notifications are coalesced: one re-list at a time, a few in all`, async () => {
    const { ctx } = await createApp()
    const server = await hostile()
    const fiber = await loadMcp(ctx, { name: 'h', transport: server.transport })
    cleanups.push(() => fiber.dispose())
    expect((await server.stats(ctx, 'h')).lists).toBe(1)
    expect(textOf(await call(ctx, 'h__flood', { n: FLOOD }))).toBe('flooded')
    // Let the flood arrive and the re-lists it caused finish: the count stops moving for 200 ms
    // (uncoalesced, a re-list of ≥ 5 ms follows another for every notification: it never stops).
    const deadline = Date.now() + 30_000
    for (let before = -1; ; ) {
      const now = (await server.stats(ctx, 'h')).lists
      if (now === before && now > 1) break
      if (Date.now() > deadline) throw new Error(`still re-listing after 30 s (${now} lists)`)
      before = now
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const stats = await server.stats(ctx, 'h')
    expect(stats.concurrentLists).toBe(1)
    // Uncoalesced, every notification was a full re-list (FLOOD + 1 in all: ≥ 20 times the bound).
    expect(stats.lists).toBeLessThanOrEqual(100)
  }, 60_000)

  // 120k keys are 240k JSON nodes (a member counts two): past the default 200 000 the failure
  // names. A bigger result is refused the same way, only later and at more cost on both sides.
  it('a result of 120k keys (240k nodes) is refused by maxNodes as TOOL_FAILED; the session keeps serving', async () => {
    const { ctx } = await createApp()
    const server = await hostile()
    const fiber = await loadMcp(ctx, { name: 'h', transport: server.transport })
    cleanups.push(() => fiber.dispose())
    const result = await call(ctx, 'h__big', { n: 120_000 })
    expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.isError && result.error.message).toMatch(
      /exceeds the client's limits: more than 200000 JSON nodes \(maxNodes\)/,
    )
    expect(textOf(await call(ctx, 'h__echo', { text: 'still here' }))).toBe('still here')
    expect((await server.stats(ctx, 'h')).lists).toBe(1)
  }, 60_000)

  it('a tools/list entry past the limits is refused on its own (a warning); the other tools register', async () => {
    const { ctx, warnings } = await createApp()
    const server = await hostile(true)
    const fiber = await loadMcp(ctx, { name: 'h', transport: server.transport })
    cleanups.push(() => fiber.dispose())
    expect(ctx.tools.get('h__monster')).toBeUndefined()
    expect(ctx.tools.get('h__echo')).toBeDefined()
    expect(warnings.find((warning) => warning.tool === 'monster')?.message).toMatch(
      /not registered: its tools\/list entry exceeds the client's limits: .*maxNodes/,
    )
  }, 60_000)

  it('progress every 20 ms does not keep a call past timeoutMs (a total bound)', async () => {
    const { ctx } = await createApp()
    const server = await hostile()
    const fiber = await loadMcp(ctx, { name: 'h', transport: server.transport, timeoutMs: 1000 })
    cleanups.push(() => fiber.dispose())
    const result = await call(ctx, 'h__drip')
    expect(result.isError && result.error.message).toMatch(/did not answer tools\/call "drip" within 1000ms/)
    void server
  }, 60_000)

  it('disposing the plugin mid-call ends the call ABORTED', async () => {
    const { ctx } = await createApp()
    const server = await hostile()
    const fiber = await loadMcp(ctx, { name: 'h', transport: server.transport })
    const pending = call(ctx, 'h__hold')
    // The call is on the wire once the server has it: ask the server for its counters first.
    await server.stats(ctx, 'h')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await fiber.dispose()
    const result = await pending
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    expect(result.isError && result.error.message).toMatch(/plugin that registered `h__hold` was disposed/)
  }, 60_000)
})
