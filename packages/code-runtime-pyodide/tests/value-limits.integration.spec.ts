// Values inside the byte caps must not cost the host seconds: a Python program's result and
// each call's arguments are measured by their JSON-value count and depth in the worker and again
// on the host, before the host parses them. Real Pyodide, the full Code Mode pipeline.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { runCode, resultText as textOf } from '@dsh/tools-codemode/testing'
import ToolRuntime from '@dsh/tools-core'
import { afterAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

// Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose is a
// whole boot for nothing.
const runtime = createPyodideRuntime({ warmWorkers: 0 })
const ctx = new Context()
const taken: number[] = []
afterAll(async () => {
  await ctx.fiber.dispose()
  await runtime.dispose()
})

async function app(): Promise<Context> {
  if (!ctx.get('tools')) {
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin({ name: 'pyodide', apply: (child: Context) => child.provide('codeRuntime', runtime) })
    await ctx.plugin(CodeMode)
    ctx.tools.register({
      name: 'take',
      description: 'Takes data.',
      parameters: { type: 'object', properties: { data: { type: 'object' } } },
      output: { schema: { type: 'number' }, render: () => [{ type: 'text', text: 'ok' }] },
      isConcurrencySafe: () => true,
      execute: () => taken.push(1),
    })
  }
  return ctx
}

/** Longest event-loop gap while `work` runs, measured by a 5 ms interval (one tick after it, too). */
async function withProbe<T>(work: () => Promise<T>): Promise<{ value: T; stall: number }> {
  let last = performance.now()
  let stall = 0
  const tick = () => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }
  const timer = setInterval(tick, 5)
  try {
    const value = await work()
    await new Promise((resolve) => setTimeout(resolve, 10))
    tick()
    return { value, stall }
  } finally {
    clearInterval(timer)
  }
}

/** Count the host's `JSON.parse` calls on texts over 100,000 characters while `work` runs. */
async function countingLargeParses<T>(work: () => Promise<T>): Promise<{ value: T; parses: number }> {
  const parse = JSON.parse
  let parses = 0
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (typeof text === 'string' && text.length > 100_000) parses++
    return parse(text, reviver)
  }) as typeof JSON.parse
  try {
    return { value: await work(), parses }
  } finally {
    JSON.parse = parse
  }
}

describe('value limits (Pyodide)', () => {
  it('a result of 100,000 keys (5 × maxValueNodes) ends output-limit on maxValueNodes; the host never parses it', async () => {
    const ctx = await app()
    const { value, stall } = await withProbe(() =>
      countingLargeParses(() => runCode(ctx, 'return {f"k{i}": i for i in range(100_000)}')),
    )
    expect(textOf(value.value)).toMatch(
      /^Error: code run failed \(output-limit\): the result holds more than 20000 JSON values \(`maxValueNodes`\)/,
    )
    expect(value.parses).toBe(0)
    expect(stall).toBeLessThan(1_500)
  })

  it('six calls of 40,000-key arguments (2 × maxValueNodes) each raise ToolCallError in the program; no tool runs', async () => {
    const ctx = await app()
    taken.length = 0
    const { value: result, parses } = await countingLargeParses(() =>
      runCode(
        ctx,
        `import asyncio
data = {f"k{i}": i for i in range(40_000)}
out = await asyncio.gather(*[tools.take({"data": data}) for _ in range(6)], return_exceptions=True)
return [type(e).__name__ + ": " + str(e) for e in out]`,
      ),
    )
    const messages = (result as unknown as { value: { result: string[] } }).value.result
    expect(messages).toHaveLength(6)
    for (const message of messages) {
      expect(message).toMatch(/^ToolCallError: arguments for take holds more than 20000 JSON values/)
    }
    expect({ taken: taken.length, parses }).toEqual({ taken: 0, parses: 0 })
  })

  it('within the caps a result of 19,000 keys comes back whole, and one 100 levels deep; 101 levels deep is refused', async () => {
    const ctx = await app()
    const wide = await runCode(ctx, 'return {f"k{i}": i for i in range(19_000)}')
    expect(Object.keys((wide as unknown as { value: { result: object } }).value.result)).toHaveLength(19_000)
    expect(await runCode(ctx, 'v = []\nfor _ in range(99): v = [v]\nreturn v')).toMatchObject({
      isError: false,
    })
    expect(textOf(await runCode(ctx, 'v = []\nfor _ in range(100): v = [v]\nreturn v'))).toBe(
      'Error: code run failed (output-limit): the result nests more than 100 levels deep (`maxValueDepth`)',
    )
  })
})
