// Annotations are the one source of effects (SPEC §13.2) across MCP: serveMcp publishes them as
// MCP hints, the client imports them back, and the imported idempotentHint alone decides whether
// a call may reach the server twice. Real SDK client and server on both sides.
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolAnnotations, type ToolExecutionResult } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import { serveMcp } from '../src/index'
import { call, createApp, inMemoryFixture, loadMcp } from './fixtures/app'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const ANNOTATED: Record<string, ToolAnnotations | undefined> = {
  all_true: { readOnly: true, destructive: true, idempotent: true, openWorld: true },
  all_false: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  lookup: { readOnly: true, idempotent: true },
  charge: { destructive: false, openWorld: true },
  plain: undefined,
}

/** The serving app: one tool per entry of {@link ANNOTATED}; each fails every call, counting bodies. */
async function servingApp(bodies: Record<string, number>) {
  const { ctx } = await createApp()
  cleanups.push(() => ctx.fiber.dispose())
  for (const [name, annotations] of Object.entries(ANNOTATED)) {
    ctx.tools.register(
      defineTool({
        name,
        description: `The ${name} tool.`,
        parameters: {},
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: () => {
          bodies[name] = (bodies[name] ?? 0) + 1
          throw new Error(`${name} failed`)
        },
        ...(annotations === undefined ? {} : { annotations }),
      }),
    )
  }
  return ctx
}

/** An in-memory transport factory serving `served` over MCP afresh on every connect. */
function servedTransport(served: Context) {
  return {
    async create() {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      const handle = await serveMcp(served, { transport: { connection: serverSide } })
      cleanups.push(() => handle.close())
      return clientSide
    },
  }
}

/** The importing app: our MCP client over `served`, with a wrapper retrying every failed call once. */
async function importingApp(served: Context, trustAnnotations: boolean) {
  const { ctx } = await createApp()
  cleanups.push(() => ctx.fiber.dispose())
  await loadMcp(ctx, { name: 'up', transport: servedTransport(served), trustAnnotations })
  ctx.on('tools/execute', (_exec, next: () => Promise<ToolExecutionResult>) =>
    next().then((first) => (first.isError ? next() : first)),
  )
  return ctx
}

describe('annotations across MCP', () => {
  it('serveMcp publishes every annotation as its MCP hint (official SDK client)', async () => {
    const served = await servingApp({})
    const client = new Client({ name: 'test', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = await serveMcp(served, { transport: { connection: serverSide } })
    await client.connect(clientSide)
    cleanups.push(
      () => handle.close(),
      () => client.close(),
    )
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))
    expect(hints.all_true).toEqual({
      readOnlyHint: true,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    })
    expect(hints.all_false).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    })
    expect(hints.charge).toEqual({ destructiveHint: false, openWorldHint: true })
    expect(hints.plain).toBeUndefined()
  })

  it('the client imports them back unchanged when trusted (a round trip through two runtimes)', async () => {
    const served = await servingApp({})
    const ctx = await importingApp(served, true)
    for (const [name, annotations] of Object.entries(ANNOTATED)) {
      expect(ctx.tools.get(`up__${name}`)?.annotations, name).toEqual(annotations)
    }
    const mode = (name: string) =>
      ctx.tools.executionMode({ callId: 'x', name, arguments: {}, signal: new AbortController().signal })
    expect(mode('up__lookup')).toBe('parallel')
    expect(mode('up__charge')).toBe('exclusive')
  })

  it('a retry sends a call to the server again only when the imported tool is idempotent', async () => {
    const bodies: Record<string, number> = {}
    const served = await servingApp(bodies)
    const ctx = await importingApp(served, true)
    const charge = await call(ctx, 'up__charge')
    const lookup = await call(ctx, 'up__lookup')
    expect(charge.isError && charge.error.message).toMatch(/not annotated `idempotent: true`/)
    expect(lookup.isError).toBe(true)
    expect(bodies).toEqual({ charge: 1, lookup: 2 })
  })

  it('untrusted hints are not imported, so nothing is idempotent and nothing is sent twice', async () => {
    const bodies: Record<string, number> = {}
    const served = await servingApp(bodies)
    const ctx = await importingApp(served, false)
    expect(ctx.tools.get('up__lookup')?.annotations).toBeUndefined()
    await call(ctx, 'up__lookup')
    await call(ctx, 'up__all_true')
    expect(bodies).toEqual({ lookup: 1, all_true: 1 })
  })
})

describe('reconnects never re-send a call', () => {
  it('a call cut off by a crash ends as a failure and is not sent to the restarted server', async () => {
    const { ctx } = await createApp()
    cleanups.push(() => ctx.fiber.dispose())
    const fixture = inMemoryFixture()
    await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    const ended = await call(ctx, 'fx__crash')
    expect(ended.isError).toBe(true)
    expect(await call(ctx, 'fx__pid')).toMatchObject({ isError: false })
    expect(fixture.servers).toHaveLength(2)
    expect(fixture.servers[0]!.stats.byTool.crash).toBe(1)
    expect(fixture.servers[1]!.stats.byTool).toEqual({ pid: 1 })
  })
})
