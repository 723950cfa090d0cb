// Code Mode through the helpers: `run_code` is the one tool a provider sees, and a response that
// calls it runs a real program in a real worker thread whose sub-calls go through the pipeline.
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import { afterEach, describe, expect, it } from 'vitest'
import { providerCalls, providerResults, providerTools } from '../src/index'
import { startRuntime } from './fixtures/runtime'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

describe('Code Mode', { timeout: 60_000 }, () => {
  it('run_code is offered in every provider format, and a call to it runs the program', async () => {
    const { ctx, runs } = await startRuntime('code')
    dispose = () => ctx.fiber.dispose()
    await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
    await ctx.plugin(CodeMode, {})
    expect(providerTools(ctx, 'openai-chat').map((tool) => tool.function.name)).toEqual(['run_code'])
    expect(providerTools(ctx, 'openai-responses').map((tool) => tool.name)).toEqual(['run_code'])
    expect(providerTools(ctx, 'anthropic').map((tool) => tool.name)).toEqual(['run_code'])
    expect(providerTools(ctx, 'gemini')[0]!.functionDeclarations.map((tool) => tool.name)).toEqual([
      'run_code',
    ])
    const program = "const t = await tools.get_time({ timezone: 'UTC' })\nreturn t"
    const calls = providerCalls('openai-chat', {
      choices: [
        {
          message: {
            tool_calls: [
              {
                id: 'call_code',
                type: 'function',
                function: {
                  name: 'run_code',
                  arguments: JSON.stringify({ description: 'read the time', code: program }),
                },
              },
            ],
          },
        },
      ],
    })
    const results = await ctx.tools.executeBatch(
      calls.map((call) => ({ ...call, signal: AbortSignal.timeout(30_000) })),
    )
    expect(results[0]!.isError).toBe(false)
    expect(runs.get('get_time')).toBe(1)
    const { messages } = providerResults('openai-chat', calls, results)
    expect(messages[0]).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_code',
      content: expect.stringContaining('get_time'),
    })
  })
})
