/**
 * Red-team findings about what a tool's answer can cost, through the full stack — cordis
 * `Context`, `ToolRuntime` in code mode, this runtime as the `codeRuntime` service and
 * `@dsh/tools-codemode`'s `run_code` — with real tools on a real Pyodide worker. A tool (or an
 * untrusted MCP server behind it) is as unbounded as the program: a value with shared references
 * whose JSON text repeats each shared part, a string or a failure message of 100 MB. Before the
 * bound, the first held the host's event loop for minutes while `JSON.stringify` expanded it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { runCode } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import PyodideCodeRuntime from '../src/index'

const json = { type: 'json' } as const

/** A value whose JSON text is 2^levels copies of `["x"]`, in a few hundred bytes of memory. */
function dagBomb(levels: number): unknown {
  let value: unknown = ['x']
  for (let i = 0; i < levels; i++) value = [value, value]
  return value
}

const OVERSIZED_TOOLS = [
  defineTool({
    name: 'bomb',
    description: 'Return a value with shared references.',
    parameters: { levels: { type: 'number', required: true } },
    output: { schema: json, render: () => [{ type: 'text', text: 'bomb' }] },
    execute: (args) => dagBomb(args.levels) as never,
  }),
  defineTool({
    name: 'long',
    description: 'Return a string of the given size.',
    parameters: { size: { type: 'number', required: true } },
    output: { schema: { type: 'string' }, render: () => [{ type: 'text', text: 'long' }] },
    execute: (args) => 'x'.repeat(args.size),
  }),
  defineTool({
    name: 'loud',
    description: 'Fail with a message of the given size.',
    parameters: { size: { type: 'number', required: true } },
    output: { schema: json, render: () => [{ type: 'text', text: 'loud' }] },
    execute: (args) => {
      throw new Error('x'.repeat(args.size))
    },
  }),
]

// maxMemoryMb 128: the worker's old generation gets 28 MiB of it (memory-budget.ts), so replies
// of at most a quarter of that, 7 Mi characters.
const MAX_REPLY = 7 * 1024 * 1024
const ctx = new Context()

beforeAll(async () => {
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(PyodideCodeRuntime, {
    // Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose
    // is a whole boot for nothing.
    warmWorkers: 0,
    computeMs: 20_000,
    maxWallMs: 120_000,
    maxMemoryMb: 128,
  })
  await ctx.plugin(CodeMode, {})
  for (const tool of OVERSIZED_TOOLS) ctx.tools.register(tool)
})
afterAll(() => ctx.fiber.dispose())

/** A program that calls each `[tool, args]` in turn and returns what each answered or raised. */
function callEach(calls: string): string {
  return [
    'out = []',
    `for name, args in (${calls}):`,
    '    try:',
    '        value = await tools[name](args)',
    '        out.append(len(json.dumps(value, separators=(",", ":"))))',
    '    except ToolCallError as error:',
    '        out.append([error.tool_name, len(error.message), error.message[:120], error.message[-90:]])',
    '    value = None',
    'return out',
  ].join('\n')
}

type Answer = number | [string, number, string, string]

async function answers(program: string): Promise<Answer[]> {
  const result = await runCode(ctx, program)
  if (result.isError) throw new Error(result.error.message)
  return (result.value as { result: Answer[] }).result
}

describe('a tool answer larger than the program can hold', () => {
  it('a shared-reference value or an over-cap string is refused before encoding, and the host never stalls', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const [small, bomb, long, fits] = await answers(
      callEach(
        `("bomb", {"levels": 4}), ("bomb", {"levels": 40}), ("long", {"size": ${MAX_REPLY}}), ("long", {"size": 10})`,
      ),
    )
    delay.disable()
    expect(small).toBe(JSON.stringify(dagBomb(4)).length)
    // 2^40 shared leaves: tools-core's valueLimits count every occurrence and refuse the value
    // before anything is built from it (the program's own cap is proved by `long` below).
    expect(bomb).toEqual([
      'bomb',
      expect.any(Number),
      expect.stringMatching(/^tool `bomb` returned a value past the runtime's valueLimits: \$\[0\]/),
      expect.stringMatching(
        /ceeds maxNodes \(more than 500000 JSON values; shared references count at every occurrence\)$/,
      ),
    ])
    // The string's JSON text (two quotes more) is one over: refused, not truncated.
    expect((long as string[])[2]).toMatch(
      /^the result of long is too large for the program: more than \d+ characters/,
    )
    expect(fits).toBe(12)
    // Building the bomb's text alone held the host's event loop for minutes; refusing it walks
    // a few dozen objects.
    expect(delay.max / 1e6).toBeLessThan(1_000)
  })

  it('a 100 MB failure message is cut to the cap and the run goes on', async () => {
    // Not timed: slicing and posting the tool's own 100 MB string costs the host about a second here.
    const [loud, after] = await answers(
      callEach('("loud", {"size": 100 * 1024 * 1024}), ("long", {"size": 10})'),
    )
    expect(loud).toEqual([
      'loud',
      MAX_REPLY,
      expect.stringMatching(/^x+$/),
      expect.stringMatching(
        new RegExp(`cut from 104857600 characters: the program may receive at most ${MAX_REPLY}\\)$`),
      ),
    ])
    expect(after).toBe(12)
  })
})
