// Workload: one trivial tool, 20,000 sequential `ctx.tools.execute` calls through the full
// pipeline — bare, and with 4 pass-through listeners on each of tools/pre-execute,
// tools/execute and tools/post-execute (12 listeners). Reports µs per call and the marginal
// cost per listener. A second runtime holds 500 tools (50 deferred, the calling agent masked):
// resolving a name there must cost what it costs with one tool.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, defineTool } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WORKLOAD = 'native_execute: trivial tool, 20,000 sequential calls'
const CALLS = 20_000

const MANY = 'native_execute: 500 tools (50 deferred), masked agent, 20,000 sequential calls'

async function measure(
  ctx: Context,
  calls: number,
  name = 'echo',
  args: object = { text: 'hi' },
  expectError = false,
): Promise<number> {
  const tools = ctx.tools
  const signal = new AbortController().signal
  const input = { callId: 'bench', name, arguments: args, signal }
  const start = performance.now()
  for (let i = 0; i < calls; i++) {
    const result = await tools.execute(input)
    if (result.isError !== expectError) throw new Error(`${name}: unexpected result`)
  }
  return ((performance.now() - start) * 1000) / calls
}

const echo = (name: string) =>
  defineTool({
    name,
    description: 'Echo text.',
    parameters: { text: { type: 'string', required: true } },
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: (args) => args.text,
  })

/** 500 tools, 50 of them deferred, and an agent scope with a deny mask; calls come from that agent. */
async function manyTools(): Promise<{ root: Context; agent: Context }> {
  const root = new Context()
  await root.plugin(ToolRuntime, { resultBudget: { maxContentBytes: 4096 } })
  for (let i = 0; i < 499; i++) root.tools.register(echo(`tool_${i}`))
  root.tools.register(echo('echo'))
  root.tools.defer(Array.from({ length: 50 }, (_, i) => `tool_${i * 10}`))
  const agent = createScope(root, 'agent').ctx
  agent.tools.restrict({ deny: ['tool_1', 'tool_2', 'tool_3'] })
  return { root, agent }
}

function passThrough(ctx: Context): () => void {
  const disposers: (() => boolean)[] = []
  for (let i = 0; i < 4; i++) {
    disposers.push(ctx.on('tools/pre-execute', (_execution, next) => next()))
    disposers.push(ctx.on('tools/execute', (_execution, next) => next()))
    disposers.push(ctx.on('tools/post-execute', (_execution, _result, next) => next()))
  }
  return () => {
    for (const dispose of disposers) dispose()
  }
}

export default async function run(): Promise<BenchRow[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  ctx.tools.register(
    defineTool({
      name: 'echo',
      description: 'Echo text.',
      parameters: { text: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: (args) => args.text,
    }),
  )
  // Alternate bare and listened rounds and keep the best of each, so machine noise (other
  // processes, GC) affects both figures alike.
  await measure(ctx, 5_000)
  let bare = Number.POSITIVE_INFINITY
  let listened = Number.POSITIVE_INFINITY
  for (let round = 0; round < 5; round++) {
    bare = Math.min(bare, await measure(ctx, CALLS))
    const remove = passThrough(ctx)
    if (round === 0) await measure(ctx, 5_000)
    listened = Math.min(listened, await measure(ctx, CALLS))
    remove()
  }
  const many = await manyTools()
  await measure(many.agent, 5_000)
  let manyEcho = Number.POSITIVE_INFINITY
  let manyRead = Number.POSITIVE_INFINITY
  const readArgs = { handle: 'no-such-handle' }
  for (let round = 0; round < 5; round++) {
    manyEcho = Math.min(manyEcho, await measure(many.agent, CALLS))
    manyRead = Math.min(manyRead, await measure(many.agent, CALLS, 'read_result', readArgs, true))
  }
  await many.root.fiber.dispose()
  return [
    { workload: MANY, metric: 'call a tool', value: manyEcho, unit: 'µs/call' },
    { workload: MANY, metric: 'call read_result (unknown handle)', value: manyRead, unit: 'µs/call' },
    { workload: WORKLOAD, metric: 'bare', value: bare, unit: 'µs/call', note: 'target < 5' },
    { workload: WORKLOAD, metric: '4 pass-through listeners × 3 phases', value: listened, unit: 'µs/call' },
    {
      workload: WORKLOAD,
      metric: 'per extra listener',
      value: (listened - bare) / 12,
      unit: 'µs',
      note: 'target < 1.5',
    },
  ]
}
