// Argument text is the model's: whatever it holds, a call ends as a result, never a throw.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { type Provider, providerCalls, providerResults } from '../src/index'

let ctx: Context | undefined
afterEach(async () => {
  await ctx?.fiber.dispose()
  ctx = undefined
})

const chat = (text: string) => ({
  choices: [
    {
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: text } }],
      },
    },
  ],
})

describe('hostile argument text through the helpers and the pipeline', () => {
  it.each([
    ['a `__proto__` key beside a property of the same name', '{"__proto__": {"x": 1}, "x": "y"}', false],
    ['200,000 nested arrays', `${'['.repeat(200_000)}${']'.repeat(200_000)}`, true],
    ['a 20 MB string', JSON.stringify({ x: 'a'.repeat(20_000_000) }), true],
  ])('%s: a result, not a throw', async (_name, text, failed) => {
    ctx = new Context()
    await ctx.plugin(ToolRuntime)
    ctx.tools.register(
      defineTool({
        name: 'echo',
        description: 'Echo x.',
        parameters: { x: { type: 'string' } },
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: ({ x }) => x ?? '',
      }),
    )
    const provider: Provider = 'openai-chat'
    const calls = providerCalls(provider, chat(text) as never)
    const results = await ctx.tools.executeBatch(
      calls.map((call) => ({ ...call, signal: AbortSignal.timeout(10_000) })),
    )
    expect(results[0]!.isError).toBe(failed)
    if (results[0]!.isError) expect(results[0]!.error.info?.code).toBe('INVALID_ARGS')
    else expect(results[0]!.value).toBe('y')
    expect(providerResults(provider, calls, results).messages).toHaveLength(1)
  })
})
