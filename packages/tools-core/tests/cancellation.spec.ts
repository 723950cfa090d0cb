import { describe, expect, it } from 'vitest'
import { ToolTimeoutError } from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

/** A tool whose body waits for its signal to abort (or for `release`), recording what it saw. */
function waitingTool(
  name: string,
  state: { started: number; sawAbort: number; release: ReturnType<typeof deferred<void>> },
) {
  return echoTool(name, {
    execute: (_args, exec) =>
      new Promise<string>((resolve, reject) => {
        state.started++
        exec.signal.addEventListener('abort', () => {
          state.sawAbort++
          reject(new Error('body aborted'))
        })
        state.release.promise.then(() => resolve('released'))
      }),
  })
}

describe('cancellation', () => {
  it('a wrapper that replaces the signal still lets caller aborts reach the body', async () => {
    const ctx = await createRuntime()
    const state = { started: 0, sawAbort: 0, release: deferred() }
    ctx.tools.register(waitingTool('wait', state))
    ctx.on('tools/execute', async (exec, next) => {
      const original = exec.signal
      exec.signal = new AbortController().signal // never aborts
      try {
        return await next()
      } finally {
        exec.signal = original
      }
    })
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('wait', {}, { signal: controller.signal }))
    await new Promise((r) => setTimeout(r, 5))
    expect(state.started).toBe(1)
    controller.abort()
    const result = await pending
    expect(state.sawAbort).toBe(1)
    // the body failed: that failure stays (abort only turns a success into ABORTED)
    expect(result.isError && result.error).toEqual({
      message: 'body aborted',
      info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
    })
  })

  it('the body also sees the wrapper-installed signal abort', async () => {
    const ctx = await createRuntime()
    const state = { started: 0, sawAbort: 0, release: deferred() }
    ctx.tools.register(waitingTool('wait', state))
    const deadline = new AbortController()
    ctx.on('tools/execute', async (exec, next) => {
      exec.signal = deadline.signal
      return next()
    })
    const pending = ctx.tools.execute(call('wait'))
    await new Promise((r) => setTimeout(r, 5))
    deadline.abort()
    await pending
    expect(state.sawAbort).toBe(1)
  })

  it('abort after the body started turns only a success into ABORTED', async () => {
    const ctx = await createRuntime()
    const gate = deferred()
    ctx.tools.register(
      echoTool('ok', {
        execute: async () => {
          await gate.promise
          return 'done'
        },
      }),
    )
    ctx.tools.register(
      echoTool('fails', {
        execute: async () => {
          await gate.promise
          throw new Error('tool broke')
        },
      }),
    )
    const controller = new AbortController()
    const ok = ctx.tools.execute(call('ok', {}, { signal: controller.signal }))
    const fails = ctx.tools.execute(call('fails', {}, { signal: controller.signal }))
    await new Promise((r) => setTimeout(r, 1))
    controller.abort()
    gate.resolve()
    const okResult = await ok
    expect(okResult.isError && okResult.error).toEqual({
      message: 'tool call aborted',
      info: { name: 'ToolAbortedError', code: 'ABORTED' },
    })
    const failsResult = await fails
    expect(failsResult.isError && failsResult.error.info?.code).toBe('TOOL_FAILED')
  })

  it('abort during policy (before the body) is ABORTED_BEFORE_DISPATCH and the body never runs', async () => {
    const ctx = await createRuntime()
    let bodies = 0
    ctx.tools.register(
      echoTool('t', {
        execute: () => {
          bodies++
          return 'x'
        },
      }),
    )
    const controller = new AbortController()
    ctx.on('tools/pre-execute', async (_exec, next) => {
      controller.abort()
      return next()
    })
    const result = await ctx.tools.execute(call('t', {}, { signal: controller.signal }))
    expect(result.isError && result.error.info?.code).toBe('ABORTED_BEFORE_DISPATCH')
    expect(bodies).toBe(0)
  })

  it('a timeout failure from a wrapper stays TOOL_TIMEOUT even when the caller also aborts', async () => {
    const ctx = await createRuntime()
    const state = { started: 0, sawAbort: 0, release: deferred() }
    ctx.tools.register(waitingTool('wait', state))
    const controller = new AbortController()
    ctx.on('tools/execute', async (_exec, next) => {
      void next()
      controller.abort()
      throw new ToolTimeoutError(25)
    })
    const result = await ctx.tools.execute(call('wait', {}, { signal: controller.signal }))
    expect(result.isError && result.error).toEqual({
      message: 'tool call timed out after 25ms',
      info: { name: 'ToolTimeoutError', code: 'TOOL_TIMEOUT' },
    })
    expect(result.content).toEqual([{ type: 'text', text: 'Error: tool call timed out after 25ms' }])
  })

  it('never returns while a started body is still pending (quiescence)', async () => {
    const ctx = await createRuntime()
    const release = deferred()
    let bodySettled = false
    ctx.tools.register(
      echoTool('slow', {
        execute: async () => {
          await release.promise
          bodySettled = true
          return 'late'
        },
      }),
    )
    // a wrapper that gives up early without waiting for the body
    ctx.on('tools/execute', async (_exec, next) => {
      void next()
      throw new ToolTimeoutError(1)
    })
    let returned = false
    const pending = ctx.tools.execute(call('slow')).then((r) => {
      returned = true
      return r
    })
    await new Promise((r) => setTimeout(r, 10))
    expect(returned).toBe(false)
    release.resolve()
    const result = await pending
    expect(bodySettled).toBe(true)
    expect(result.isError && result.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it('a next() a wrapper fires microtasks after returning never leaves a started body pending', async () => {
    // The wrapper gives up, then calls next() k microtasks later. Whatever k, either the body
    // never starts, or execute() returns only after that body settled.
    for (let k = 0; k <= 12; k++) {
      const ctx = await createRuntime()
      const release = deferred()
      const order: string[] = []
      ctx.tools.register(
        echoTool('slow', {
          execute: async () => {
            order.push('body started')
            await release.promise
            order.push('body settled')
            return 'late'
          },
        }),
      )
      ctx.on('tools/execute', async (_exec, next) => {
        let later: Promise<void> = Promise.resolve()
        for (let i = 0; i < k; i++) later = later.then(() => {})
        later.then(() => void next())
        throw new ToolTimeoutError(1)
      })
      const pending = ctx.tools.execute(call('slow')).then((result) => {
        order.push('execute returned')
        return result
      })
      await new Promise((r) => setTimeout(r, 5))
      release.resolve()
      const result = await pending
      expect(result.isError && result.error.info?.code).toBe('TOOL_TIMEOUT')
      expect([[], ['body started', 'body settled']]).toContainEqual(
        order.filter((entry) => entry !== 'execute returned'),
      )
      expect(order.at(-1)).toBe('execute returned')
    }
  })

  it('a body that ignores an abort still settles the call only once it settles', async () => {
    const ctx = await createRuntime()
    const release = deferred()
    const order: string[] = []
    ctx.tools.register(
      echoTool('stubborn', {
        execute: async () => {
          await release.promise
          order.push('body settled')
          return 'done'
        },
      }),
    )
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('stubborn', {}, { signal: controller.signal })).then((r) => {
      order.push('execute returned')
      return r
    })
    await new Promise((r) => setTimeout(r, 1))
    controller.abort()
    await new Promise((r) => setTimeout(r, 5))
    expect(order).toEqual([])
    release.resolve()
    const result = await pending
    expect(order).toEqual(['body settled', 'execute returned'])
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
  })
})
