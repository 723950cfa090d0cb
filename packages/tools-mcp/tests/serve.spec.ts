import type { Context } from '@deepseek-ai/cordis'
import { defineTool } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { type McpServeHandle, serveMcp } from '../src/index'
import { call, createApp, loadMcp, textOf, until } from './fixtures/app'
import { registerServedTools, servedStats } from './fixtures/served-tools'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function servedApp() {
  const { ctx } = await createApp()
  await ctx.plugin({ name: 'served', inject: ['tools'], apply: registerServedTools })
  cleanups.push(() => ctx.fiber.dispose())
  return ctx
}

async function connectInMemory(ctx: Context, client = new Client({ name: 'test', version: '1' })) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = await serveMcp(ctx, { transport: { connection: serverSide } })
  await client.connect(clientSide)
  cleanups.push(
    () => handle.close(),
    () => client.close(),
  )
  return client
}

describe('serveMcp', () => {
  it('lists the visible tools with inputSchema, outputSchema (non-objects wrapped as { value }) and annotations', async () => {
    const client = await connectInMemory(await servedApp())
    const { tools } = await client.listTools()
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
    expect(Object.keys(byName).sort()).toEqual(['add', 'stat', 'wait', 'wipe'])
    expect(byName.add?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] })
    expect(byName.add?.outputSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'number' } },
      required: ['value'],
    })
    expect(byName.stat?.outputSchema).toMatchObject({ type: 'object', required: ['path', 'size'] })
    expect(byName.stat?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false })
    expect(byName.wipe?.annotations).toEqual({ destructiveHint: true })
    expect(byName.add?.annotations).toBeUndefined()
  })

  it('calls run the full pipeline: structured output, rendered content, policy failures as isError', async () => {
    const ctx = await servedApp()
    ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'wipe' ? { kind: 'deny', reason: 'not today' } : next(),
    )
    const client = await connectInMemory(ctx)
    const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })
    expect(add.structuredContent).toEqual({ value: 42 })
    expect(add.content).toEqual([{ type: 'text', text: '42' }])
    const stat = await client.callTool({ name: 'stat', arguments: { path: '/tmp/x' } })
    expect(stat.structuredContent).toEqual({ path: '/tmp/x', size: 6 })
    const wipe = await client.callTool({ name: 'wipe', arguments: {} })
    expect(wipe.isError).toBe(true)
    expect(wipe.content).toEqual([{ type: 'text', text: 'Error: not today' }])
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'two' } })
    expect(invalid.isError).toBe(true)
    const unknown = await client.callTool({ name: 'nope', arguments: {} })
    expect(unknown.isError).toBe(true)
  })

  it('ask → MCP elicitation when the client supports it (accept allows, decline denies)', async () => {
    const ctx = await servedApp()
    ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'wipe' ? { kind: 'ask', reason: 'destructive' } : next(),
    )
    const answers = ['accept', 'decline']
    const prompts: string[] = []
    const client = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      prompts.push(request.params.message)
      const action = answers.shift() as 'accept' | 'decline'
      return action === 'accept' ? { action, content: { approve: true } } : { action }
    })
    await connectInMemory(ctx, client)
    const before = servedStats.bodies
    const allowed = await client.callTool({ name: 'wipe', arguments: {} })
    expect(allowed.isError).toBeFalsy()
    const denied = await client.callTool({ name: 'wipe', arguments: {} })
    expect(denied.isError).toBe(true)
    expect(JSON.stringify(denied.content)).toContain('did not approve')
    expect(servedStats.bodies - before).toBe(1)
    expect(prompts).toHaveLength(2)
    expect(prompts[0]).toContain('`wipe`')
  })

  it('ask without elicitation support is denied; with an approval service, the service decides', async () => {
    const ctx = await servedApp()
    ctx.on('tools/pre-execute', async (exec, next) => (exec.name === 'wipe' ? { kind: 'ask' } : next()))
    const client = await connectInMemory(ctx)
    const denied = await client.callTool({ name: 'wipe', arguments: {} })
    expect(denied.isError).toBe(true)
    expect(JSON.stringify(denied.content)).toContain('no approval service')
    const asked: string[] = []
    await ctx.plugin({
      name: 'approval',
      apply: (child: Context) => {
        child.provide('approval', {
          request: async (exec: { name: string }) => {
            asked.push(exec.name)
            return { approved: true }
          },
        })
      },
    })
    const approved = await client.callTool({ name: 'wipe', arguments: {} })
    expect(approved.isError).toBeFalsy()
    expect(asked).toEqual(['wipe'])
  })

  it('a client cancellation aborts the tool body', async () => {
    const client = await connectInMemory(await servedApp())
    const before = servedStats.aborted
    const controller = new AbortController()
    const pending = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal })
    await until(
      () => servedStats.bodies > 0 && servedStats.aborted === before && controller.signal.aborted === false,
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    controller.abort()
    await expect(pending).rejects.toThrow()
    await until(() => servedStats.aborted === before + 1)
  })

  it('serves only what the agent sees', async () => {
    const ctx = await servedApp()
    const { createScope } = await import('@dsh/tools-core')
    const agent = createScope(ctx, 'reader')
    agent.ctx.tools.restrict({ allow: ['stat'] })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = await serveMcp(ctx, { agent: 'reader', transport: { connection: serverSide } })
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(clientSide)
    cleanups.push(
      () => handle.close(),
      () => client.close(),
    )
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['stat'])
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).isError).toBe(true)
  })
})

describe('serveMcp over HTTP, with our own client plugin on the other side', () => {
  it('binds 127.0.0.1 only; the client plugin lists, calls and follows list_changed over Streamable HTTP', async () => {
    const server = await servedApp()
    const handle: McpServeHandle = await serveMcp(server, { transport: { port: 0 } })
    cleanups.push(() => handle.close())
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const { ctx } = await createApp()
    cleanups.push(() => ctx.fiber.dispose())
    await loadMcp(ctx, { name: 'dsh', transport: { url: handle.url! } })
    expect(ctx.tools.get('dsh__stat')).toBeDefined()
    const add = await call(ctx, 'dsh__add', { a: 1, b: 2 })
    expect(add.isError === false && add.value).toEqual({ value: 3 })
    expect(textOf(add)).toContain('3')
    server.tools.register(
      defineTool({
        name: 'late',
        description: 'Registered after the client connected.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        execute: () => 'late!',
      }),
    )
    await until(() => ctx.tools.get('dsh__late') !== undefined)
    const late = await call(ctx, 'dsh__late')
    expect(late.isError === false && late.value).toEqual({ value: 'late!' })
  })

  it('the bare SDK client works over HTTP and close() releases the port', async () => {
    const handle = await serveMcp(await servedApp(), { transport: { port: 0 } })
    const client = new Client({ name: 'bare', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)))
    expect((await client.callTool({ name: 'add', arguments: { a: 5, b: 6 } })).structuredContent).toEqual({
      value: 11,
    })
    await client.close()
    await handle.close()
    const again = new Client({ name: 'bare', version: '1' })
    await expect(again.connect(new StreamableHTTPClientTransport(new URL(handle.url!)))).rejects.toThrow()
  })
})
