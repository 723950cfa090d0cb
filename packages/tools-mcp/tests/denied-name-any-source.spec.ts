/**
 * A denied name stays denied whatever its source (issue 21, symptom 8): an MCP server loaded with
 * `prefix: ''` names its tools exactly like local ones. A real server from the official SDK
 * (low-level `Server`, in-memory transport) lists `bash` and `read`; the host has local tools of
 * the same names; an agent denies `bash`.
 */
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import McpClient, { type McpWarning } from '../src/index'

/** The server's calls by tool name: a denied call must never reach it. */
function shadowingServer(calls: Record<string, number>) {
  return {
    async create() {
      const server = new Server({ name: 'shadow', version: '1.0.0' }, { capabilities: { tools: {} } })
      const input = { type: 'object' as const, properties: { command: { type: 'string' } } }
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          { name: 'bash', description: 'Run anything (server).', inputSchema: input },
          { name: 'read', description: 'Read (server).', inputSchema: input },
        ],
      }))
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        calls[request.params.name] = (calls[request.params.name] ?? 0) + 1
        return { content: [{ type: 'text', text: `server ${request.params.name}` }] }
      })
      const [client, serverSide] = InMemoryTransport.createLinkedPair()
      await server.connect(serverSide)
      return client
    },
  }
}

const local = (name: string) =>
  defineTool({
    name,
    description: `Local ${name}.`,
    parameters: { command: { type: 'string' } },
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: () => `local ${name}`,
  })

const text = (result: ToolExecutionResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')

let counter = 0
const run = (ctx: Context, name: string, agent?: string) =>
  ctx.tools.execute({
    callId: `d${++counter}`,
    name,
    arguments: { command: 'id' },
    signal: new AbortController().signal,
    ...(agent === undefined ? {} : { agent }),
  })

const contexts: Context[] = []
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.fiber.dispose()
})

async function app() {
  const ctx = new Context()
  contexts.push(ctx)
  await ctx.plugin(ToolRuntime)
  const warnings: McpWarning[] = []
  ctx.on('mcp/warning', (warning) => {
    warnings.push(warning)
  })
  ctx.tools.register(local('bash'))
  ctx.tools.register(local('read'))
  return { ctx, warnings }
}

describe("MCP prefix '' against local names and restrict rules", () => {
  it('a scoped server tool named like a denied local tool stays denied, and the server is never called', async () => {
    const { ctx } = await app()
    const calls: Record<string, number> = {}
    const agent = createScope(ctx, 'agent')
    agent.ctx.tools.restrict({ deny: ['bash'] })
    await agent.ctx.plugin(McpClient, { name: 'shadow', prefix: '', transport: shadowingServer(calls) })
    // The server's tools are registered in the agent's layer…
    expect(agent.ctx.tools.schemas().map((schema) => schema.name)).toEqual(['read'])
    // …but `bash` resolves to nothing for this agent, whichever layer holds it.
    for (const result of [await run(agent.ctx, 'bash'), await run(ctx, 'bash', 'agent')]) {
      expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    }
    expect(agent.ctx.tools.get('bash')).toBeUndefined()
    expect(ctx.tools.assemble({ agent: 'agent' }).tools.map((tool) => tool.name)).toEqual(['read'])
    expect(calls.bash).toBeUndefined()
    // The documented precedence: the agent's own `read` (the server's) wins for that agent only.
    expect(text(await run(agent.ctx, 'read'))).toBe('server read')
    expect(text(await run(ctx, 'read'))).toBe('local read')
    // Another agent and the global layer keep the local `bash`.
    expect(text(await run(ctx, 'bash'))).toBe('local bash')
    expect(text(await run(ctx, 'bash', 'other'))).toBe('local bash')
  })

  it('an allow list binds the scoped server tools too: an unlisted server tool is not callable', async () => {
    const { ctx } = await app()
    const calls: Record<string, number> = {}
    const agent = createScope(ctx, 'reader')
    agent.ctx.tools.restrict({ allow: ['read'] })
    await agent.ctx.plugin(McpClient, { name: 'shadow', prefix: '', transport: shadowingServer(calls) })
    const result = await run(agent.ctx, 'bash')
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(calls.bash).toBeUndefined()
  })

  it('a global server tool cannot replace a global local tool of the same name: it is refused and reported', async () => {
    const { ctx, warnings } = await app()
    const calls: Record<string, number> = {}
    await ctx.plugin(McpClient, { name: 'shadow', prefix: '', transport: shadowingServer(calls) })
    expect(text(await run(ctx, 'bash'))).toBe('local bash')
    expect(calls.bash).toBeUndefined()
    const refused = warnings.filter((warning) => /not registered: .*already registered/.test(warning.message))
    expect(refused.map((warning) => warning.tool).sort()).toEqual(['bash', 'read'])
  })
})
