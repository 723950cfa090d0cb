// Workload: one MCP `echo` tool on an official-SDK server over the in-memory transport, 3,000
// sequential calls per path, the paths interleaved call by call in the same run:
//   - bare SDK `Client.callTool` without a signal (no cancellation possible);
//   - bare SDK `Client.callTool` with a fresh AbortSignal per call — the same call our pipeline
//     makes (it always hands the SDK the call's signal: cancellation is part of what it gives);
//   - the registered MCP tool through our pipeline (`tools.execute`, a fresh signal per call);
//   - a hand-written local tool whose body makes that same bare SDK call with its `exec.signal`
//     (the pipeline around an SDK call without this plugin: their difference is the plugin's cost);
//   - a trivial async local tool through the same pipeline (what any tool pays, MCP or not);
//   - the same trivial tool reading `exec.signal` (what the body's own linked signal costs).
// Reports medians in µs per call and the pipeline's ratio to both floors. The target (≤ 1.1×)
// is stated against the with-signal floor; see the tools-mcp README for why.
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
const ECHO_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const

/** A fresh echo server connected to the returned client-side transport. */
async function echoServer(): Promise<InMemoryTransport> {
  const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', description: 'Echo text.', inputSchema: ECHO_SCHEMA }],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: String(request.params.arguments?.text) }],
  }))
  const [client, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  return client
}

/** The median and the 10th percentile of a sample, in µs. */
interface Summary {
  readonly median: number
  readonly p10: number
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (fraction: number) => sorted[Math.floor(sorted.length * fraction)]! * 1000
  return { median: at(0.5), p10: at(0.1) }
}

/**
 * Run the paths one call each, round after round, keeping each call's own duration: on a shared,
 * noisy machine every path then sees the same noise, and medians ignore the spikes.
 */
async function interleave(paths: readonly (() => Promise<unknown>)[], calls: number): Promise<Summary[]> {
  const samples = paths.map((): number[] => [])
  for (let i = 0; i < calls; i++) {
    for (let p = 0; p < paths.length; p++) {
      const t0 = performance.now()
      await paths[p]!()
      samples[p]!.push(performance.now() - t0)
    }
  }
  return samples.map(summarize)
}

export default async function run(): Promise<BenchRow[]> {
  const bare = new Client({ name: 'bench-bare', version: '1' })
  await bare.connect(await echoServer())
  const args = { name: 'echo', arguments: { text: 'hi' } }
  const bareCall = () => bare.callTool(args)
  // A fresh signal per call, as an agent loop gives each model turn (a shared one would collect
  // one abort listener per call inside the SDK, which never removes them).
  const bareSignalCall = () => bare.callTool(args, undefined, { signal: new AbortController().signal })

  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(McpClient, { name: 'bench', transport: { create: echoServer } })
  ctx.tools.register({
    name: 'local_echo',
    description: 'Echo text.',
    parameters: ECHO_SCHEMA,
    output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text: String(text) }] },
    execute: async (input) => (input as { text: string }).text,
  })
  ctx.tools.register({
    name: 'local_signal',
    description: 'Echo text, reading the body signal.',
    parameters: ECHO_SCHEMA,
    output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text: String(text) }] },
    execute: async (input, exec) => (exec.signal.aborted ? '' : (input as { text: string }).text),
  })
  ctx.tools.register({
    name: 'sdk_in_body',
    description: 'Echo text through the bare SDK client.',
    parameters: ECHO_SCHEMA,
    output: { schema: { type: 'array' }, render: () => [{ type: 'text', text: 'echoed' }] },
    execute: async (input, exec) =>
      (
        await bare.callTool({ name: 'echo', arguments: input as { text: string } }, undefined, {
          signal: exec.signal,
        })
      ).content as never,
  })
  // The service is resolved once, as a loop holds it: each `ctx.tools` is a cordis proxy lookup.
  const tools = ctx.tools
  const through = (name: string) => async () => {
    const result = await tools.execute({
      callId: 'bench',
      name,
      arguments: { text: 'hi' },
      signal: new AbortController().signal,
    })
    if (result.isError) throw new Error(result.error.message)
  }
  const paths = [
    bareCall,
    bareSignalCall,
    through('bench__echo'),
    through('sdk_in_body'),
    through('local_echo'),
    through('local_signal'),
  ]

  await interleave(paths, CALLS) // JIT warm-up
  const summaries = await interleave(paths, CALLS)
  const [bareUs, bareSignalUs, pipelineUs, sdkInBodyUs, localUs, localSignalUs] = summaries.map(
    (s) => s.median,
  )
  // On a loaded machine the per-call times are bimodal (a call another process interrupted takes
  // ~2–3× longer, and the longer a path, the likelier): medians of longer paths can land in the
  // slow mode. The 10th percentiles compare calls nobody interrupted (tools-mcp README).
  const [floorBp10, pipelineP10] = [summaries[1]!.p10, summaries[2]!.p10]
  await bare.close()
  await ctx.fiber.dispose()
  const row = (metric: string, value: number, unit: string, note?: string): BenchRow =>
    note === undefined
      ? { workload: WORKLOAD, metric, value, unit }
      : { workload: WORKLOAD, metric, value, unit, note }
  return [
    row('bare SDK callTool, no signal', bareUs!, 'µs/call', 'floor A (cannot be cancelled)'),
    row('bare SDK callTool, fresh AbortSignal', bareSignalUs!, 'µs/call', 'floor B (the same call)'),
    row('MCP tool through tools.execute', pipelineUs!, 'µs/call'),
    row('trivial async local tool through tools.execute', localUs!, 'µs/call', 'generic pipeline, reference'),
    row(
      'trivial async local tool reading exec.signal',
      localSignalUs!,
      'µs/call',
      'minus the row above: the body’s linked signal',
    ),
    row('ratio pipeline / floor B', pipelineUs! / bareSignalUs!, '×', 'target ≤ 1.1'),
    row('ratio pipeline / floor A', pipelineUs! / bareUs!, '×'),
    row(
      'ratio pipeline / floor B, 10th percentiles',
      pipelineP10 / floorBp10,
      '×',
      'uninterrupted calls; medians above',
    ),
    row(
      'local tool making the same SDK call in its body',
      sdkInBodyUs!,
      'µs/call',
      'pipeline + SDK, no plugin',
    ),
    row('MCP plugin’s own cost (MCP tool − SDK-in-body tool)', pipelineUs! - sdkInBodyUs!, 'µs/call'),
  ]
}
