// Workload: the Code Mode bridge's host cost per sub-call, without a worker. A scripted
// `CodeRuntime` makes N sequential awaited binding calls, each answered at once by a synchronous
// tool, so what is measured is the bridge (admission, argument snapshot, scheduling, promise
// hops) plus tools-core's pipeline. Each call's arguments start as JSON text, as a worker's
// calls arrive, and reach the host two ways: `host.call` (the runtime parses the text; the
// bridge makes a checked copy) and `host.callJson` (the bridge parses and owns the text's tree:
// one counting pass, no copy). The floor is the same N calls, arguments parsed from the same
// text, straight through `ctx.tools.execute` of a native-mode app (Code Mode refuses direct
// calls). Rounds interleave the three paths (rotating their order) after the same warm-up;
// times are medians, ratios are medians of per-round ratios.
//
// Two argument shapes: a one-field object (`{ i }`, the engines bench's sequential loop) and a
// ~40-value object (the snapshot's per-value cost shows there).
import { Context } from '@deepseek-ai/cordis'
import type { CodeRunHost, CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@dsh/tools-codemode'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { type JsonValue, type ToolDefinition } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WORKLOAD = 'codemode_bridge: sequential sub-calls, scripted runtime (no worker)'
const CALLS = 2_000
const ROUNDS = 15

/** One call's argument text, as a worker's call arrives. */
type MakeArgs = (i: number) => string

const small: MakeArgs = (i) => `{"i":${i}}`

const MEDIUM_TAIL = JSON.stringify({
  path: 'src/some/deeper/module-name.ts',
  flags: { recursive: true, followLinks: false, hidden: false },
  include: ['*.ts', '*.tsx', '*.json', '*.md'],
  exclude: ['node_modules', 'dist', '.git'],
  rows: Array.from({ length: 4 }, (_, k) => ({ id: k, label: `row ${k}`, score: k / 4 })),
}).slice(1)
const medium: MakeArgs = (i) => `{"i":${i},${MEDIUM_TAIL}`

/**
 * How the runtime hands a call's arguments to the host: parsed into a value (`host.call`, the
 * runtime parses) or as the text itself (`host.callJson`, the bridge parses and owns them).
 */
type Entry = 'call' | 'callJson'

/** A runtime that runs no program: it makes `calls` awaited binding calls in a row. */
class ScriptedRuntime implements CodeRuntime {
  readonly language = 'typescript' as const
  calls = CALLS
  makeArgs: MakeArgs = small
  entry: Entry = 'call'

  async run(_request: CodeRunRequest, host: CodeRunHost): Promise<CodeRunOutcome> {
    const { calls, makeArgs } = this
    let sum = 0
    if (this.entry === 'callJson') {
      for (let i = 0; i < calls; i++) sum += (await host.callJson!('noop', makeArgs(i))) as number
    } else {
      for (let i = 0; i < calls; i++) sum += (await host.call('noop', JSON.parse(makeArgs(i)))) as number
    }
    return { ok: true, logs: [], result: sum }
  }
}

/** A Code Mode app when `runtime` is given, else a native one (the floor's: tools callable directly). */
async function app(runtime?: ScriptedRuntime): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: runtime === undefined ? 'native' : 'code' })
  if (runtime !== undefined) {
    await ctx.plugin({
      name: 'scripted-runtime',
      apply: (child: Context) => child.provide('codeRuntime', runtime),
    })
    await ctx.plugin(CodeMode)
  }
  // Raw JSON Schema, an open object: the medium shape's other fields pass unvalidated.
  const noop: ToolDefinition<{ i: number }, number> = {
    name: 'noop',
    description: 'Returns its input number.',
    parameters: { type: 'object', properties: { i: { type: 'integer' } }, required: ['i'] },
    output: {
      schema: { type: 'integer' },
      render: (_args, value) => [{ type: 'text', text: String(value) }],
    },
    execute: (args) => args.i,
  }
  ctx.tools.register(noop)
  return ctx
}

let runs = 0

/** µs per sub-call of one `run_code` run making `calls` calls. */
async function throughBridge(
  ctx: Context,
  runtime: ScriptedRuntime,
  makeArgs: MakeArgs,
  entry: Entry,
): Promise<number> {
  runtime.makeArgs = makeArgs
  runtime.entry = entry
  const start = performance.now()
  const result = await ctx.tools.execute({
    callId: `bridge-${++runs}`,
    name: 'run_code',
    arguments: { code: 'scripted', description: 'bridge benchmark' },
    signal: new AbortController().signal,
  })
  const elapsed = performance.now() - start
  if (result.isError) throw new Error(result.error.message)
  return (elapsed * 1000) / runtime.calls
}

/** µs per call of the same calls straight through `ctx.tools.execute` (the floor). */
async function direct(ctx: Context, calls: number, makeArgs: MakeArgs): Promise<number> {
  const tools = ctx.tools
  const signal = new AbortController().signal
  const start = performance.now()
  let sum = 0
  for (let i = 0; i < calls; i++) {
    const result = await tools.execute({
      callId: `direct-${i}`,
      name: 'noop',
      arguments: JSON.parse(makeArgs(i)) as JsonValue,
      signal,
    })
    if (result.isError) throw new Error(result.error.message)
    sum += result.value as number
  }
  const elapsed = performance.now() - start
  if (sum < 0) throw new Error('unreachable')
  return (elapsed * 1000) / calls
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export default async function run(): Promise<BenchRow[]> {
  const runtime = new ScriptedRuntime()
  const ctx = await app(runtime)
  const native = await app()
  const rows: BenchRow[] = []
  for (const [label, makeArgs] of [
    ['{ i }', small],
    ['~40-value object', medium],
  ] as const) {
    // The same warm-up for every path.
    await throughBridge(ctx, runtime, makeArgs, 'call')
    await throughBridge(ctx, runtime, makeArgs, 'callJson')
    await direct(native, CALLS, makeArgs)
    const samples: Record<Entry | 'floor', number[]> = { call: [], callJson: [], floor: [] }
    // Ratios are taken per round, against the floor measured next to them, so load that drifts
    // between rounds (a shared machine) cancels out; the order rotates so no path always goes first.
    const ratios: Record<Entry, number[]> = { call: [], callJson: [] }
    for (let round = 0; round < ROUNDS; round++) {
      const order: (Entry | 'floor')[] = (
        [
          ['call', 'floor', 'callJson'],
          ['floor', 'callJson', 'call'],
          ['callJson', 'call', 'floor'],
        ] as const
      )[round % 3]!.slice()
      const took: Partial<Record<Entry | 'floor', number>> = {}
      for (const path of order) {
        took[path] =
          path === 'floor'
            ? await direct(native, CALLS, makeArgs)
            : await throughBridge(ctx, runtime, makeArgs, path)
        samples[path].push(took[path]!)
      }
      for (const entry of ['call', 'callJson'] as const) ratios[entry].push(took[entry]! / took.floor!)
    }
    const floor = median(samples.floor)
    rows.push({
      workload: WORKLOAD,
      metric: `${label}: floor, ctx.tools.execute`,
      value: floor,
      unit: 'µs/call',
    })
    for (const entry of ['call', 'callJson'] as const) {
      const ratio = median(ratios[entry])
      rows.push(
        {
          workload: WORKLOAD,
          metric: `${label}: host.${entry}`,
          value: median(samples[entry]),
          unit: 'µs/call',
        },
        {
          workload: WORKLOAD,
          metric: `${label}: host.${entry}, ratio to floor`,
          value: ratio,
          unit: '×',
          note: 'median of per-round ratios; lower is better',
        },
        {
          workload: WORKLOAD,
          metric: `${label}: host.${entry}, bridge's own cost`,
          value: (ratio - 1) * floor,
          unit: 'µs/call',
          note: '(ratio − 1) × floor',
        },
      )
    }
  }
  ctx.fiber.dispose()
  native.fiber.dispose()
  return rows
}
