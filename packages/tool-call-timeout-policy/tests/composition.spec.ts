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
  // A retry may run the body again only because the tool says that is safe (SPEC §13.2).
  annotations: { idempotent: true },
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

describe('annotations decide what is re-run', () => {
  /** Never answers in time; counts its bodies. */
  const slow = (idempotent: boolean) =>
    defineTool({
      name: 'slow',
      description: 'always too slow',
      parameters: {},
      timeoutMs: 20,
      ...(idempotent ? { annotations: { idempotent: true } } : {}),
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute(_args, exec): Promise<string> {
        startedAborted.push(exec.signal.aborted)
        await new Promise((resolve) => exec.signal.addEventListener('abort', resolve, { once: true }))
        throw new Error('gave up')
      },
    })
  const callSlow = () =>
    ctx.tools.execute({ callId: 'c', name: 'slow', arguments: {}, signal: new AbortController().signal })

  it('the timeout policy alone never runs a timed-out body again', async () => {
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(slow(true))
    const result = await callSlow()
    expect(startedAborted).toHaveLength(1)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'TOOL_TIMEOUT' } } })
  })

  it('a retry around the timeout re-runs a timed-out body only when the tool is idempotent', async () => {
    await ctx.plugin(retry, { attempts: 3 })
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(slow(false))
    const once = await callSlow()
    expect(startedAborted).toHaveLength(1)
    expect(once.isError && once.error.message).toMatch(/not annotated `idempotent: true`/)
    startedAborted = []
    ctx.tools.register({ ...slow(true), name: 'slow2' })
    await ctx.tools.execute({
      callId: 'd',
      name: 'slow2',
      arguments: {},
      signal: new AbortController().signal,
    })
    expect(startedAborted).toHaveLength(3)
  })
})
