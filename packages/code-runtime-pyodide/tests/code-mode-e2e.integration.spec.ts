// End to end with real Pyodide workers: the Python SDK text Code Mode renders for real tools,
// and programs written against exactly the forms it declares, run through
// ctx.tools.execute({ name: 'run_code' }) → bridge → @dsh/code-runtime-pyodide → the full pipeline.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { addTool, echoTool, runCode, resultText as textOf } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterAll, describe, expect, it } from 'vitest'
import PyodideCodeRuntime from '../src/index'

let active = 0
let maxActive = 0

const slowEcho = defineTool({
  name: 'slow-echo',
  description: 'Echo text after a few turns of the event loop (concurrency-safe).',
  parameters: { text: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  isConcurrencySafe: () => true,
  async execute(args) {
    active++
    maxActive = Math.max(maxActive, active)
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    active--
    return args.text
  },
})

const failing = defineTool({
  name: 'fail',
  description: 'Always fails.',
  parameters: {},
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  execute() {
    throw new Error('fail always fails')
  },
})

const ctx = new Context()
afterAll(() => ctx.fiber.dispose())

async function app(): Promise<Context> {
  if (!ctx.get('tools')) {
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    // Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose
    // is a whole boot for nothing.
    await ctx.plugin(PyodideCodeRuntime, { warmWorkers: 0 })
    await ctx.plugin(CodeMode, { maxParallelSubCalls: 4 })
    for (const tool of [addTool, echoTool, slowEcho, failing]) ctx.tools.register(tool)
  }
  return ctx
}

describe('Code Mode with Python programs', () => {
  it('runs a program that calls every tool in the form the rendered Python SDK declares', async () => {
    const ctx = await app()
    expect(ctx.codeRuntime.language).toBe('python')
    const sdk = ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    const methods = [...sdk.matchAll(/^ {4}async def (\w+)\(self, args: /gm)].map((match) => match[1])
    const subscripts = [...sdk.matchAll(/^ {4}def __getitem__\(self, name: Literal\[("[^"]+")\]\)/gm)].map(
      (match) => JSON.parse(match[1] as string) as string,
    )
    expect(methods).toEqual(['add', 'echo', 'fail'])
    expect(subscripts).toEqual(['slow-echo'])
    expect(sdk).toContain('class ToolCallError(Exception):')
    const program = [
      'total = await tools.add({"a": 1, "b": 2})',
      'said = await tools.echo({"text": "hi"})',
      'slow = await tools["slow-echo"]({"text": "slow"})',
      'try:',
      '    await tools.fail({})',
      '    failed = None',
      'except ToolCallError as error:',
      '    failed = [error.tool_name, error.message]',
      'print("called", total, said, slow)',
      'return {"total": total, "said": said, "slow": slow, "failed": failed}',
    ].join('\n')
    const result = await runCode(ctx, program)
    if (result.isError) throw new Error(result.error.message)
    expect(result.value).toEqual({
      logs: ['called 3 hi slow'],
      result: {
        total: 3,
        said: 'hi',
        slow: 'slow',
        failed: ['fail', expect.stringContaining('fail always fails')],
      },
    })
  })

  it('asyncio.gather overlaps concurrency-safe calls through the bridge, up to maxParallelSubCalls', async () => {
    const ctx = await app()
    maxActive = 0
    const result = await runCode(
      ctx,
      [
        'words = await asyncio.gather(*[tools["slow-echo"]({"text": f"w{i}"}) for i in range(12)])',
        'return ",".join(words)',
      ].join('\n'),
    )
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe(Array.from({ length: 12 }, (_, i) => `w${i}`).join(','))
    expect(maxActive).toBe(4)
  })
})
