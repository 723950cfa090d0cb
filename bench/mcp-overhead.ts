// Workload: one MCP `echo` tool on an official-SDK server over the in-memory transport, 3,000
// sequential calls — through our pipeline (`ctx.tools.execute` of the registered MCP tool) and
// with the bare SDK `Client.callTool`, in the same run against the same kind of server. Reports
// the median µs per call of both and their ratio (the pipeline's overhead on an MCP call).
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import McpClient from '@dsh/tools-mcp'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { BenchRow } from './types'

const WORKLOAD = 'mcp_overhead: MCP echo tool, in-memory transport, 3,000 sequential calls'
const CALLS = 3_000

/** A fresh echo server connected to the returned client-side transport. */
async function echoServer(): Promise<InMemoryTransport> {
  const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'echo',
        description: 'Echo text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text) }],
  }))
  const [client, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  return client
}

/** Median of a sample, in µs. */
function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]! * 1000
}

/**
 * Interleave the two calls one by one and keep each call's own duration: on a shared, noisy
 * machine both paths then see the same noise, and medians ignore the spikes.
 */
async function interleave(
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  calls: number,
): Promise<[number, number]> {
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now()
    await first()
    const t1 = performance.now()
    await second()
    b.push(performance.now() - t1)
    a.push(t1 - t0)
  }
  return [median(a), median(b)]
}

export default async function run(): Promise<BenchRow[]> {
  const bare = new Client({ name: 'bench-bare', version: '1' })
  await bare.connect(await echoServer())
  const bareCall = () => bare.callTool({ name: 'echo', arguments: { text: 'hi' } })

  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(McpClient, { name: 'bench', transport: { create: echoServer } })
  // A fresh signal per call, as an agent loop gives each model turn (a shared one would collect
  // one abort listener per call inside the SDK).
  const pipelineCall = async () => {
    const signal = new AbortController().signal
    const result = await ctx.tools.execute({
      callId: 'bench',
      name: 'bench__echo',
      arguments: { text: 'hi' },
      signal,
    })
    if (result.isError) throw new Error(result.error.message)
  }

  await interleave(bareCall, pipelineCall, CALLS) // JIT warm-up
  const [bareMedian, pipelineMedian] = await interleave(bareCall, pipelineCall, CALLS)
  await bare.close()
  await ctx.fiber.dispose()
  return [
    {
      workload: WORKLOAD,
      metric: 'bare SDK client.callTool',
      value: bareMedian,
      unit: 'µs/call',
      note: 'floor',
    },
    { workload: WORKLOAD, metric: 'through ctx.tools.execute', value: pipelineMedian, unit: 'µs/call' },
    {
      workload: WORKLOAD,
      metric: 'ratio pipeline / bare',
      value: pipelineMedian / bareMedian,
      unit: '×',
      note: 'target ≤ 1.1',
    },
  ]
}
