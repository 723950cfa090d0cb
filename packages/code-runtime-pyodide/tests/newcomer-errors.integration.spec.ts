// Mistakes a newcomer makes, with real Pyodide workers: a mistyped tool inside a program is a
// ToolCallError naming it and suggesting close names (as a native call's "did you mean" does);
// forgetting this runtime plugin is named by assembly and run_code.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { runCode, resultText as textOf } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterAll, describe, expect, it } from 'vitest'
import PyodideCodeRuntime from '../src/index'

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

const ctx = new Context()
afterAll(() => ctx.fiber.dispose())

const HINT = 'unknown tool: get_wether is not a binding of this run — did you mean `get_weather`?'

describe('Python: forgetting the runtime, then a mistyped tool', () => {
  it('without this runtime, assembly and run_code name it', async () => {
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin(CodeMode)
    ctx.tools.register(getWeather)
    const hint =
      /no code runtime is: load @dsh\/code-runtime-worker-thread \(TypeScript\) or @dsh\/code-runtime-pyodide \(Python\)/
    expect(() => ctx.tools.assemble({})).toThrow(hint)
    expect(textOf(await runCode(ctx, 'return 1'))).toMatch(hint)
    // Interpreters boot on demand: a warm one left at dispose is a whole boot for nothing.
    await ctx.plugin(PyodideCodeRuntime, { warmWorkers: 0 })
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['run_code'])
  })

  it('a mistyped attribute rejects with a ToolCallError naming it and the close name', async () => {
    const result = await runCode(
      ctx,
      `try:
    await tools.get_wether({"city": "Paris"})
    return "no error"
except ToolCallError as error:
    return {"type": type(error).__name__, "tool": error.tool_name, "message": str(error)}`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: { result: { type: 'ToolCallError', tool: 'get_wether', message: HINT } },
    })
  })

  it('a mistyped item fails the same way; uncaught it fails the run with the message', async () => {
    const result = await runCode(ctx, `return await tools["get_wether"]({"city": "Paris"})`)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(`ToolCallError: ${HINT}`)
  })

  it('an unawaited mistyped call ends nothing; membership and private names stay exact', async () => {
    const result = await runCode(
      ctx,
      `tools.get_wether({"city": "Paris"})
value = await tools.get_weather({"city": "Oslo"})
return {"value": value, "has": "get_weather" in tools, "hasTypo": "get_wether" in tools, "private": hasattr(tools, "_x"), "dir": dir(tools)}`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: {
        result: {
          value: { city: 'Oslo', celsius: 21 },
          has: true,
          hasTypo: false,
          private: false,
          dir: ['get_weather'],
        },
      },
    })
  })
})
