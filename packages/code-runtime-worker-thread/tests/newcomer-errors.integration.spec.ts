// Mistakes a newcomer makes, with real worker threads on both engines: a mistyped tool inside a
// program is a ToolCallError that names it and suggests close names; forgetting this runtime
// plugin is named by assembly and run_code; the tools-codemode README's own sample runs.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WorkerThreadCodeRuntime from '../src/index'
import { runCode, textOf } from './fixtures/code-mode-app'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

/** The tool of the tools-codemode README's Usage sample, verbatim. */
const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { city: { type: 'string', required: true } },
  output: {
    schema: {
      type: 'object',
      properties: { city: { type: 'string', required: true }, celsius: { type: 'number', required: true } },
      additionalProperties: false,
    },
    render: (_args, value) => [{ type: 'text', text: `${value.city}: ${value.celsius} °C` }],
  },
  execute: ({ city }) => ({ city, celsius: 21 }),
})

async function start(engine: 'quickjs' | 'node-vm') {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime, { engine })
  await ctx.plugin(CodeMode, { maxParallelSubCalls: 10 })
  ctx.tools.register(getWeather)
  return ctx
}

describe.each(['quickjs', 'node-vm'] as const)('a mistyped tool inside a program (%s)', (engine) => {
  // These tests only run programs: one app per engine (each run still gets a fresh worker).
  let ctx: Context
  beforeAll(async () => {
    ctx = await start(engine)
  })
  afterAll(() => ctx.fiber.dispose())

  it('rejects with a ToolCallError naming the tool and suggesting the close name', async () => {
    const result = await runCode(
      ctx,
      `try {
        await tools.get_wether({ city: 'Paris' })
        return 'no error'
      } catch (error) {
        return { isToolCallError: error instanceof ToolCallError, name: error.name, toolName: error.toolName, message: error.message }
      }`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: {
        result: {
          isToolCallError: true,
          name: 'ToolCallError',
          toolName: 'get_wether',
          message: 'unknown tool: get_wether is not a binding of this run — did you mean `get_weather`?',
        },
      },
    })
  })

  it('an uncaught mistyped call fails the run with that message', async () => {
    const result = await runCode(ctx, `return await tools.get_wether({ city: 'Paris' })`)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(
      'ToolCallError: unknown tool: get_wether is not a binding of this run — did you mean `get_weather`?',
    )
  })

  it('a mistyped call that is never awaited does not end the run', async () => {
    const result = await runCode(
      ctx,
      `tools.get_wether({ city: 'Paris' }); return await tools.get_weather({ city: 'Oslo' })`,
    )
    expect(result).toMatchObject({ isError: false, value: { result: { city: 'Oslo', celsius: 21 } } })
  })

  it('only real tools are keys; implicit probes read undefined and make no call', async () => {
    const result = await runCode(
      ctx,
      `return {
        has: 'get_weather' in tools, hasTypo: 'get_wether' in tools, keys: Object.keys(tools),
        thenType: typeof tools.then, toJSON: typeof tools.toJSON, awaited: (await tools) === tools,
        json: JSON.stringify(tools), frozen: Object.isFrozen(tools), proto: Object.getPrototypeOf(tools),
        typo: typeof tools.get_wether, symbol: typeof tools[Symbol.iterator],
      }`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: {
        result: {
          has: true,
          hasTypo: false,
          keys: ['get_weather'],
          thenType: 'undefined',
          toJSON: 'undefined',
          awaited: true,
          json: '{}',
          frozen: true,
          proto: null,
          typo: 'function',
          symbol: 'undefined',
        },
      },
    })
  })
})

describe('the tools-codemode README sample', () => {
  it('runs and returns the tool value', async () => {
    const ctx = await start('quickjs')
    app = ctx
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['run_code'])
    const result = await ctx.tools.execute({
      callId: 'call-1',
      name: 'run_code',
      arguments: {
        code: 'return await tools.get_weather({ city: "Paris" })',
        description: 'weather in Paris',
      },
      signal: new AbortController().signal,
    })
    expect(result).toMatchObject({ isError: false, value: { result: { city: 'Paris', celsius: 21 } } })
    expect(textOf(result)).toBe('{\n  "city": "Paris",\n  "celsius": 21\n}')
  })
})

describe('forgetting this runtime plugin', () => {
  it('assembly and run_code name it; loading it later makes run_code work', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin(CodeMode)
    ctx.tools.register(getWeather)
    const hint =
      /Code Mode is loaded but no code runtime is: load @dsh\/code-runtime-worker-thread \(TypeScript\)/
    expect(() => ctx.tools.assemble({})).toThrow(hint)
    expect(textOf(await runCode(ctx, 'return 1'))).toMatch(hint)
    await ctx.plugin(WorkerThreadCodeRuntime)
    const result = await runCode(ctx, `return await tools.get_weather({ city: 'Rome' })`)
    expect(result).toMatchObject({ isError: false, value: { result: { city: 'Rome', celsius: 21 } } })
  })
})
