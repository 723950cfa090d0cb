import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, {
  defineTool,
  type ToolDispatchExecution,
  type ToolExecutionResult,
} from '@dsh/tools-core'
import { beforeEach, describe, expect, it } from 'vitest'
import * as timeoutPolicy from '../src/index'

/** A small retry policy: up to `attempts` tries while the dispatch fails (result or throw). */
const retry = {
  name: 'test-retry',
  inject: ['tools'],
  apply(ctx: Context, config: { attempts: number }) {
    ctx.on(
      'tools/execute',
      async (_exec: ToolDispatchExecution, next: () => Promise<ToolExecutionResult>) => {
        let last: ToolExecutionResult | undefined
        let error: unknown
        for (let attempt = 0; attempt < config.attempts; attempt++) {
          try {
            last = await next()
            error = undefined
            if (!last.isError) return last
          } catch (thrown) {
            error = thrown
          }
        }
        if (error !== undefined) throw error
        return last!
      },
    )
  },
}

let ctx: Context
/** Per attempt: was the signal already aborted when the body started? */
let startedAborted: boolean[]

beforeEach(async () => {
  ctx = new Context()
  await ctx.plugin(ToolRuntime)
  startedAborted = []
})

/** Attempts 1 and 2 wait for their signal and fail; attempt 3 succeeds at once. */
const flaky = defineTool({
  name: 'flaky',
  description: 'slow twice, then fast',
  parameters: {},
  timeoutMs: 30,
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  async execute(_args, exec): Promise<string> {
    startedAborted.push(exec.signal.aborted)
    if (startedAborted.length >= 3) return `attempt ${startedAborted.length}`
    if (!exec.signal.aborted) {
      await new Promise((resolve) => exec.signal.addEventListener('abort', resolve, { once: true }))
    }
    throw new Error('gave up')
  },
})

const call = () =>
  ctx.tools.execute({ callId: 'c', name: 'flaky', arguments: {}, signal: new AbortController().signal })

describe('composition with a retry wrapper (listener order = registration order)', () => {
  it('timeout outside retry: one deadline across all attempts', async () => {
    await ctx.plugin(timeoutPolicy)
    await ctx.plugin(retry, { attempts: 3 })
    ctx.tools.register(flaky)
    const result = await call()
    expect(startedAborted).toEqual([false, true, true])
    expect(result).toMatchObject({
      isError: true,
      error: { message: 'tool call timed out after 30ms', info: { code: 'TOOL_TIMEOUT' } },
    })
  })

  it('timeout inside retry: a fresh deadline per attempt', async () => {
    await ctx.plugin(retry, { attempts: 3 })
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(flaky)
    const result = await call()
    expect(startedAborted).toEqual([false, false, false])
    expect(result).toMatchObject({ isError: false, value: 'attempt 3' })
  })
})
