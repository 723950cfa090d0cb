// The MCP paths (SPEC §13.2): a call of an MCP-imported tool suspends and resumes like a native
// one (the remote tool runs once, after the decision), and a client of `serveMcp` gets an error
// result naming the ticket. Both ends are the official MCP SDK over its in-memory transport.

import type { ToolFailure } from '@dsh/tools-core'
import McpClient, { serveMcp } from '@dsh/tools-mcp'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { approvalsRuntime, call, deployTool, signal } from './fixtures/approvals-runtime'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A remote MCP server with one `deploy` tool; `runs` counts its calls. */
function remoteServer(runs: string[]) {
  const server = new Server({ name: 'remote', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'deploy',
        description: 'Deploy a service.',
        inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
      },
    ],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const target = String((request.params.arguments as { target?: unknown })?.target)
    runs.push(target)
    return { content: [{ type: 'text', text: `deployed ${target}` }] }
  })
  return server
}

describe('MCP-imported tools', () => {
  it('suspend, decide, resume: the remote tool runs once, after the decision', async () => {
    const ctx = await approvalsRuntime()
    cleanups.push(() => ctx.fiber.dispose())
    ctx.on('tools/pre-execute', async (execution, next) =>
      execution.name === 'remote__deploy' ? ({ kind: 'ask', reason: 'remote deploy' } as const) : next(),
    )
    const runs: string[] = []
    await ctx.plugin(McpClient, {
      name: 'remote',
      transport: {
        async create() {
          const [client, server] = InMemoryTransport.createLinkedPair()
          await remoteServer(runs).connect(server)
          return client
        },
      },
    })
    const result = (await ctx.tools.execute(call('remote__deploy', { target: 'prod' }))) as ToolFailure
    expect(result.error.info?.code).toBe('APPROVAL_PENDING')
    expect(result.pending).toMatchObject({ tool: 'remote__deploy', reason: 'remote deploy' })
    expect(runs).toEqual([])
    await ctx.approvals.decide(result.pending!.ticket, { approve: true, by: 'ana' })
    const resumed = await ctx.tools.resume(result.pending!.ticket, { signal: signal() })
    expect(resumed.isError).toBe(false)
    expect(resumed.content).toEqual([{ type: 'text', text: 'deployed prod' }])
    expect(await ctx.tools.resume(result.pending!.ticket, { signal: signal() })).toEqual(resumed)
    expect(runs).toEqual(['prod'])
  })
})

describe('serveMcp', () => {
  it('an MCP client gets an error result naming the ticket; the tool runs only on resume', async () => {
    const ctx = await approvalsRuntime()
    cleanups.push(() => ctx.fiber.dispose())
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const handle = await serveMcp(ctx, { transport: { connection: serverSide } })
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(clientSide)
    cleanups.push(
      () => handle.close(),
      () => client.close(),
    )
    const answer = await client.callTool({ name: 'deploy', arguments: { target: 'prod' } })
    expect(answer.isError).toBe(true)
    const text = (answer.content as { type: string; text: string }[]).map((part) => part.text).join('')
    const [pending] = await ctx.approvals.list({ status: 'pending' })
    expect(text).toContain(pending!.ticket)
    expect(text).toContain('waiting for a person')
    expect(runs).toEqual([])
    await ctx.approvals.decide(pending!.ticket, { approve: true, by: 'ana' })
    expect(await ctx.tools.resume(pending!.ticket, { signal: signal() })).toMatchObject({
      value: 'deployed prod',
    })
    expect(runs).toEqual(['prod'])
  })
})
