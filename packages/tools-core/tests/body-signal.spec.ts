import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { linkSignals } from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length

describe('the body’s own signal (ctx.signal)', () => {
  it('aborts with the caller’s reason while the body runs, and is detached once it settles', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    let seen: AbortSignal | undefined
    ctx.tools.register(
      echoTool('wait', {
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            seen = exec.signal
            exec.signal.addEventListener('abort', () => reject(exec.signal.reason))
            queueMicrotask(() => controller.abort(reason))
          }),
      }),
    )
    const result = await ctx.tools.execute(call('wait', {}, { signal: controller.signal }))
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    expect(seen!.reason).toBe(reason)
    expect(listeners(controller.signal)).toBe(0)
  })

  it('a signal read during the body no longer follows the caller after it settles', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    const signals: AbortSignal[] = []
    ctx.tools.register(
      echoTool('read', {
        execute: async (_args, exec) => {
          signals.push(exec.signal)
          await Promise.resolve()
          return 'ok'
        },
      }),
    )
    for (let i = 0; i < 20; i++) {
      const result = await ctx.tools.execute(call('read', {}, { signal: controller.signal }))
      expect(result.isError).toBe(false)
    }
    expect(new Set(signals).size).toBe(20) // one signal per body, never shared between calls
    expect(listeners(controller.signal)).toBe(0)
    controller.abort()
    expect(signals.filter((signal) => signal.aborted)).toEqual([])
  })

  it('starts aborted, with its reason, when the signal a wrapper hands on is already aborted', async () => {
    const ctx = await createRuntime()
    const caller = new AbortController()
    let state: { aborted: boolean; reason: unknown } | undefined
    ctx.tools.register(
      echoTool('look', {
        execute: (_args, exec) => {
          state = { aborted: exec.signal.aborted, reason: exec.signal.reason }
          return 'ok'
        },
      }),
    )
    ctx.on('tools/execute', (_exec, next) => next(AbortSignal.abort('deadline passed')))
    const result = await ctx.tools.execute(call('look', {}, { signal: caller.signal }))
    expect(result.isError).toBe(false) // only the caller's abort makes a success ABORTED
    expect(state).toEqual({ aborted: true, reason: 'deadline passed' })
    expect(listeners(caller.signal)).toBe(0)
  })

  it('follows the signal a wrapper passes to next() as well as the caller’s, and leaves both', async () => {
    const ctx = await createRuntime()
    const gate = deferred()
    const caller = new AbortController()
    const deadlines: AbortController[] = []
    let body: AbortSignal | undefined
    ctx.tools.register(
      echoTool('wait', {
        execute: async (_args, exec) => {
          body = exec.signal
          await gate.promise
          return 'done'
        },
      }),
    )
    // A deadline the way the timeout policy builds one: its own signal fused with the caller's.
    ctx.on('tools/execute', async (exec, next) => {
      const deadline = new AbortController()
      deadlines.push(deadline)
      const fused = linkSignals(exec.signal, deadline.signal)
      try {
        return await next(fused.signal)
      } finally {
        fused.dispose()
      }
    })
    const pending = ctx.tools.execute(call('wait', {}, { signal: caller.signal }))
    while (body === undefined) await new Promise((resolve) => setTimeout(resolve, 1))
    expect(listeners(caller.signal)).toBe(1) // the fused signal and the body share one listener
    deadlines[0]!.abort('TOOL_TIMEOUT')
    expect(body.aborted).toBe(true)
    expect(body.reason).toBe('TOOL_TIMEOUT')
    gate.resolve()
    await pending
    expect(listeners(caller.signal)).toBe(0)
    expect(listeners(deadlines[0]!.signal)).toBe(0)
  })
})
