import { describe, expect, it } from 'vitest'
import type { ToolDispatchExecution } from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

describe('tools/execute signal flow: next(signal)', () => {
  it('the signal a wrapper passes to next() reaches the body, and its own view keeps the one it got', async () => {
    const ctx = await createRuntime()
    const gate = deferred()
    let bodySignal: AbortSignal | undefined
    ctx.tools.register(
      echoTool('wait', {
        execute: async (_args, exec) => {
          bodySignal = exec.signal
          await gate.promise
          return 'done'
        },
      }),
    )
    const passed = new AbortController()
    const views: { before?: AbortSignal; after?: AbortSignal; inner?: AbortSignal } = {}
    ctx.on('tools/execute', async (exec, next) => {
      views.before = exec.signal
      const result = await next(passed.signal)
      views.after = exec.signal
      return result
    })
    ctx.on('tools/execute', (exec, next) => {
      views.inner = exec.signal
      return next()
    })
    const pending = ctx.tools.execute(call('wait'))
    await new Promise((resolve) => setTimeout(resolve, 1))
    expect(views.inner).toBe(passed.signal)
    expect(bodySignal!.aborted).toBe(false)
    passed.abort(new Error('deadline'))
    expect(bodySignal!.aborted).toBe(true)
    gate.resolve()
    const result = await pending
    // only the caller's abort turns a success into ABORTED; a wrapper's signal does not
    expect(result.isError).toBe(false)
    expect(views.after).toBe(views.before)
  })

  it("an inner wrapper's assignment to its view is never seen by the wrappers around it", async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('echo'))
    const seen: AbortSignal[] = []
    ctx.on('tools/execute', async (exec, next) => {
      seen.push(exec.signal)
      const result = await next()
      seen.push(exec.signal)
      return result
    })
    ctx.on('tools/execute', (exec, next) => {
      exec.signal = new AbortController().signal // no restore: the view is this wrapper's own
      return next()
    })
    const result = await ctx.tools.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(seen).toHaveLength(2)
    expect(seen[1]).toBe(seen[0])
  })

  it('next() with something that is not an AbortSignal is a TOOL_FAILED result and runs no body', async () => {
    const ctx = await createRuntime()
    let bodies = 0
    ctx.tools.register(
      echoTool('echo', {
        execute: () => {
          bodies++
          return 'ok'
        },
      }),
    )
    for (const garbage of [null, 42, { aborted: false }]) {
      const dispose = ctx.on('tools/execute', (_exec: ToolDispatchExecution, next) =>
        (next as (signal: unknown) => ReturnType<typeof next>)(garbage),
      )
      const result = await ctx.tools.execute(call('echo'))
      dispose()
      expect(result.isError && result.error).toEqual({
        message: 'tools/execute listener failed: `next()` was given something that is not an AbortSignal',
        info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
      })
    }
    expect(bodies).toBe(0)
  })

  it('a retry passes a fresh signal per attempt; each body runs under the signal of its own attempt', async () => {
    const ctx = await createRuntime()
    const abortedAtStart: boolean[] = []
    ctx.tools.register({
      ...echoTool('flaky', {
        execute: (_args, exec) => {
          abortedAtStart.push(exec.signal.aborted)
          if (abortedAtStart.length === 1) throw new Error('first attempt fails')
          return 'second'
        },
      }),
      annotations: { idempotent: true },
    })
    ctx.on('tools/execute', async (_exec, next) => {
      const expired = new AbortController()
      expired.abort(new Error('first attempt ran out of time'))
      const first = await next(expired.signal)
      if (!first.isError) return first
      return next(new AbortController().signal)
    })
    const result = await ctx.tools.execute(call('flaky'))
    expect(result.isError === false && result.value).toBe('second')
    expect(abortedAtStart).toEqual([true, false])
  })
})
