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

// maxMemoryMb 128 is the smaller cap: replies of at most a quarter of it, 32 Mi characters.
const MAX_REPLY = 32 * 1024 * 1024
const ctx = new Context()

beforeAll(async () => {
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(PyodideCodeRuntime, {
    warmWorkers: 1,
    computeMs: 20_000,
    maxWallMs: 120_000,
    maxMemoryMb: 128,
  })
  await ctx.plugin(CodeMode, {})
  for (const tool of OVERSIZED_TOOLS) ctx.tools.register(tool)
})
afterAll(() => ctx.fiber.dispose())

describe('a tool answer larger than the program can hold', () => {
  it('is refused or cut with a ToolCallError, the run goes on, and the host never stalls', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const result = await runCode(
      ctx,
      [
        'out = []',
        `for name, args in (("bomb", {"levels": 4}), ("bomb", {"levels": 40}), ("long", {"size": ${MAX_REPLY}}),`,
        '                   ("loud", {"size": 100 * 1024 * 1024})):',
        '    try:',
        '        value = await tools[name](args)',
        '        out.append(len(json.dumps(value, separators=(",", ":"))))',
        '    except ToolCallError as error:',
        '        out.append([error.tool_name, len(error.message), error.message[:120], error.message[-90:]])',
        '    value = None',
        'return out',
      ].join('\n'),
    )
    delay.disable()
    if (result.isError) throw new Error(result.error.message)
    const [small, bomb, long, loud] = (
      result.value as { result: [number, ...[string, number, string, string][]] }
    ).result
    expect(small).toBe(JSON.stringify(dagBomb(4)).length)
    expect(bomb?.[0]).toBe('bomb')
    expect(bomb?.[2]).toMatch(
      new RegExp(
        `^the result of bomb is too large for the program: more than ${MAX_REPLY} characters, at most ${MAX_REPLY}`,
      ),
    )
    // The string's JSON text (two quotes more) is one over: refused, not truncated.
    expect(long?.[2]).toMatch(/^the result of long is too large for the program: more than \d+ characters/)
    expect(loud?.[0]).toBe('loud')
    expect(loud?.[1]).toBe(MAX_REPLY)
    expect(loud?.[3]).toMatch(/cut from 104857600 characters: the program may receive at most 33554432\)$/)
    // Building the bomb's text alone would hold the host's event loop for minutes; the longest
    // stall left is copying a 32 Mi reply, far below this bound even on a loaded machine.
    expect(delay.max / 1e6).toBeLessThan(1_500)
  })
})
