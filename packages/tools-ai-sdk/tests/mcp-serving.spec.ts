// AI SDK tools registered into the registry are served over MCP like any tool: the official
// MCP SDK client lists them with their JSON Schema and calls them through the pipeline.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import { serveMcp } from '@dsh/tools-mcp'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { tool } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { registerAiSdkTools } from '../src/index'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('registered AI SDK tools over MCP', () => {
  it('are listed with their schema and called through the pipeline, zod validation and policy included', async () => {
    const ctx = new Context()
    cleanups.push(() => ctx.fiber.dispose())
    await ctx.plugin(ToolRuntime)
    let runs = 0
    registerAiSdkTools(ctx, {
      weather: tool({
        description: 'Weather in a city.',
        inputSchema: z.object({ city: z.string().refine((city) => city !== 'Atlantis', 'no such city') }),
        execute: async ({ city }) => {
          runs++
          return `${city}: 21°C`
        },
      }),
    })
    ctx.tools.guard((execution) =>
      JSON.stringify(execution.arguments).includes('Mordor') ? 'not there' : undefined,
    )
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = await serveMcp(ctx, { transport: { connection: serverSide } })
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(clientSide)
    cleanups.push(
      () => handle.close(),
      () => client.close(),
    )
    const { tools } = await client.listTools()
    expect(tools.map((entry) => entry.name)).toEqual(['weather'])
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } })
    expect(await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).toMatchObject({
      content: [{ type: 'text', text: 'Oslo: 21°C' }],
    })
    const refused = await client.callTool({ name: 'weather', arguments: { city: 'Atlantis' } })
    expect(refused).toMatchObject({ isError: true })
    expect(JSON.stringify(refused.content)).toContain('no such city')
    const denied = await client.callTool({ name: 'weather', arguments: { city: 'Mordor' } })
    expect(denied).toMatchObject({ isError: true })
    expect(JSON.stringify(denied.content)).toContain('not there')
    expect(runs).toBe(1)
  })
})
