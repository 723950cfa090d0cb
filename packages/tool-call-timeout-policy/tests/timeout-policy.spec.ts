import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, {
  createScope,
  defineTool,
  type ToolDispatchExecution,
  ToolTimeoutError,
} from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as timeoutPolicy from '../src/index'

let ctx: Context

/** Resolves once `signal` aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })

const output = {
  schema: { type: 'string' },
  render: (_args: unknown, value: string) => [{ type: 'text' as const, text: value }],
} as const

/** A body that waits for its signal, then rejects with the signal's reason (cooperative). */
const cooperative = defineTool({
  name: 'slow',
  description: 'waits for its signal',
  parameters: {},
  timeoutMs: 30,
  output,
  async execute(_args, exec): Promise<string> {
    await aborted(exec.signal)
    throw exec.signal.reason
  },
})

let calls = 0
const execute = (name: string, signal = new AbortController().signal) =>
  ctx.tools.execute({ callId: `call-${++calls}`, name, arguments: {}, signal })

beforeEach(async () => {
  ctx = new Context()
  await ctx.plugin(ToolRuntime)
})
afterEach(() => vi.useRealTimers())

describe('tool-call-timeout-policy', () => {
  it('a slow cooperative body times out as TOOL_TIMEOUT with the exact message', async () => {
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(cooperative)
    const result = await execute('slow')
    expect(result).toEqual({
      isError: true,
      error: {
        message: 'tool call timed out after 30ms',
        info: { name: 'ToolTimeoutError', code: 'TOOL_TIMEOUT' },
      },
      content: [{ type: 'text', text: 'Error: tool call timed out after 30ms' }],
    })
  })

  it('the body sees a ToolTimeoutError as the abort reason of its signal', async () => {
    await ctx.plugin(timeoutPolicy)
    let reason: unknown
    ctx.tools.register(
      defineTool({
        name: 'observe',
        description: 'records the abort reason',
        parameters: {},
        timeoutMs: 10,
        output,
        async execute(_args, exec): Promise<string> {
          await aborted(exec.signal)
          reason = exec.signal.reason
          return 'done'
        },
      }),
    )
    await execute('observe')
    expect(reason).toBeInstanceOf(ToolTimeoutError)
  })

  it('a fast body is unaffected and its timer is cleared', async () => {
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(
      defineTool({
        name: 'fast',
        description: 'fast',
        parameters: {},
        timeoutMs: 60_000,
        output,
        execute: (): string => 'ok',
      }),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const result = await execute('fast')
    expect(result).toMatchObject({ isError: false, value: 'ok' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a body that ignores the signal is not killed: the wrapper waits, then reports the timeout', async () => {
    await ctx.plugin(timeoutPolicy)
    const events: string[] = []
    let release!: () => void
    ctx.tools.register(
      defineTool({
        name: 'stubborn',
        description: 'ignores its signal',
        parameters: {},
        timeoutMs: 10,
        output,
        async execute(_args, exec): Promise<string> {
          await aborted(exec.signal)
          events.push('deadline seen')
          await new Promise<void>((resolve) => (release = resolve))
          events.push('body settled')
          return 'late'
        },
      }),
    )
    const pending = execute('stubborn').then((result) => {
      events.push('result')
      return result
    })
    await vi.waitFor(() => expect(events).toEqual(['deadline seen']))
    release()
    const result = await pending
    expect(events).toEqual(['deadline seen', 'body settled', 'result'])
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'TOOL_TIMEOUT' } } })
  })

  it('a caller abort is reported as ABORTED, never as TOOL_TIMEOUT, even if the body outlives the deadline', async () => {
    await ctx.plugin(timeoutPolicy)
    const controller = new AbortController()
    let started!: () => void
    const bodyStarted = new Promise<void>((resolve) => (started = resolve))
    ctx.tools.register(
      defineTool({
        name: 'cancellable',
        description: 'returns after abort, slowly',
        parameters: {},
        timeoutMs: 20,
        output,
        async execute(_args, exec): Promise<string> {
          started()
          await aborted(exec.signal)
          await new Promise((resolve) => setTimeout(resolve, 60)) // unwinds past the 20ms budget
          return 'stopped'
        },
      }),
    )
    const pending = execute('cancellable', controller.signal)
    await bodyStarted
    controller.abort()
    expect(await pending).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
  })

  it("restores the caller's signal: an outer wrapper sees its own signal object after next() returns", async () => {
    const seen: { before?: AbortSignal; after?: AbortSignal; inner?: AbortSignal } = {}
    ctx.on('tools/execute', async (exec: ToolDispatchExecution, next) => {
      seen.before = exec.signal
      try {
        return await next()
      } finally {
        seen.after = exec.signal
      }
    })
    await ctx.plugin(timeoutPolicy)
    ctx.on('tools/execute', async (exec: ToolDispatchExecution, next) => {
      seen.inner = exec.signal
      return next()
    })
    ctx.tools.register(
      defineTool({
        name: 'fast',
        description: 'fast',
        parameters: {},
        timeoutMs: 60_000,
        output,
        execute: (): string => 'ok',
      }),
    )
    await execute('fast')
    expect(seen.after).toBe(seen.before)
    expect(seen.inner).not.toBe(seen.before)
    expect(seen.inner!.aborted).toBe(false)
  })

  it('a tool without timeoutMs passes untouched: same signal, no timer', async () => {
    const signals: AbortSignal[] = []
    const record = async (exec: ToolDispatchExecution, next: () => Promise<any>) => {
      signals.push(exec.signal)
      return next()
    }
    ctx.on('tools/execute', record)
    await ctx.plugin(timeoutPolicy)
    ctx.on('tools/execute', record)
    ctx.tools.register(
      defineTool({
        name: 'plain',
        description: 'no budget',
        parameters: {},
        output,
        execute: (): string => 'ok',
      }),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    expect(await execute('plain')).toMatchObject({ isError: false, value: 'ok' })
    expect(signals[1]).toBe(signals[0])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('the wrapper ends with its fiber', async () => {
    const signals: AbortSignal[] = []
    const record = async (exec: ToolDispatchExecution, next: () => Promise<any>) => {
      signals.push(exec.signal)
      return next()
    }
    ctx.on('tools/execute', record)
    const fiber = await ctx.plugin(timeoutPolicy)
    ctx.on('tools/execute', record)
    ctx.tools.register(
      defineTool({
        name: 'fast',
        description: 'fast',
        parameters: {},
        timeoutMs: 60_000,
        output,
        execute: (): string => 'ok',
      }),
    )
    await fiber.dispose()
    await execute('fast')
    expect(signals[1]).toBe(signals[0])
  })

  it('reads the budget of the definition the calling agent sees (a scoped tool shadows the global one)', async () => {
    await ctx.plugin(timeoutPolicy)
    ctx.tools.register(
      defineTool({
        name: 'slow',
        description: 'global, no budget',
        parameters: {},
        output,
        execute: (): string => 'global',
      }),
    )
    const agent = createScope(ctx, 'agent-a')
    agent.ctx.tools.register(cooperative)
    const scoped = await ctx.tools.execute({
      callId: 'a',
      name: 'slow',
      arguments: {},
      signal: new AbortController().signal,
      agent: 'agent-a',
    })
    expect(scoped).toMatchObject({ isError: true, error: { info: { code: 'TOOL_TIMEOUT' } } })
    expect(await execute('slow')).toMatchObject({ isError: false, value: 'global' })
  })
})
