import { getEventListeners } from 'node:events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call, createRuntime, echoTool } from './fixtures/runtime'

const CALLS = 200
let warnings: Error[] = []
const onWarning = (warning: Error) => warnings.push(warning)
beforeEach(() => {
  warnings = []
  process.on('warning', onWarning)
})
afterEach(() => {
  process.off('warning', onWarning)
})

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length

/** A body that listens on its signal and never removes the listener (a common slip). */
function leakyTool(peak: { n: number }, shared: () => AbortSignal) {
  return echoTool('leaky', {
    isConcurrencySafe: () => true,
    execute: async (_args, exec) => {
      exec.signal.addEventListener('abort', () => {})
      peak.n = Math.max(peak.n, listeners(shared()))
      await new Promise((r) => setTimeout(r, 1))
      return 'ok'
    },
  })
}

describe('signal listeners', () => {
  it(`${CALLS} concurrent native calls sharing one signal add at most one listener to it and leave none`, async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    const peak = { n: 0 }
    ctx.tools.register(leakyTool(peak, () => controller.signal))
    const results = await Promise.all(
      Array.from({ length: CALLS }, () =>
        ctx.tools.execute(call('leaky', {}, { signal: controller.signal })),
      ),
    )
    expect(results.every((r) => !r.isError)).toBe(true)
    expect(peak.n).toBeLessThanOrEqual(1)
    expect(listeners(controller.signal)).toBe(0)
    await new Promise((r) => setImmediate(r))
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
  })

  it(`executeBatch of ${CALLS} calls leaves no listener on the batch or the input signals`, async () => {
    const ctx = await createRuntime()
    const batch = new AbortController()
    const turn = new AbortController()
    const peak = { n: 0 }
    ctx.tools.register(leakyTool(peak, () => batch.signal))
    const results = await ctx.tools.executeBatch(
      Array.from({ length: CALLS }, () => call('leaky', {}, { signal: turn.signal })),
      { signal: batch.signal, maxParallel: CALLS },
    )
    expect(results.every((r) => !r.isError)).toBe(true)
    expect(peak.n).toBeLessThanOrEqual(1)
    expect(listeners(batch.signal)).toBe(0)
    expect(listeners(turn.signal)).toBe(0)
    await new Promise((r) => setImmediate(r))
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
  })

  it('a caller abort still reaches every running body through its own signal', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    let seen = 0
    let started = 0
    ctx.tools.register(
      echoTool('wait', {
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            started++
            exec.signal.addEventListener('abort', () => {
              seen++
              reject(exec.signal.reason)
            })
          }),
      }),
    )
    const pending = Promise.all(
      Array.from({ length: 50 }, () => ctx.tools.execute(call('wait', {}, { signal: controller.signal }))),
    )
    while (started < 50) await new Promise((r) => setTimeout(r, 1))
    controller.abort()
    const results = await pending
    expect(seen).toBe(50)
    expect(results.every((r) => r.isError && r.error.info?.code === 'ABORTED')).toBe(true)
    expect(listeners(controller.signal)).toBe(0)
  })
})

describe('the per-body signal is linked on first read', () => {
  it('a body that never reads ctx.signal attaches nothing to the caller signal, even while it runs', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    let during = -1
    ctx.tools.register(
      echoTool('quiet', {
        execute: async () => {
          during = listeners(controller.signal)
          await new Promise((r) => setTimeout(r, 1))
          return 'ok'
        },
      }),
    )
    const result = await ctx.tools.execute(call('quiet', {}, { signal: controller.signal }))
    expect(result.isError).toBe(false)
    expect(during).toBe(0)
  })

  it('reads of ctx.signal inside one body return the same signal, and it follows the caller', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    const seen: AbortSignal[] = []
    ctx.tools.register(
      echoTool('twice', {
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            seen.push(exec.signal, exec.signal)
            exec.signal.addEventListener('abort', () => reject(exec.signal.reason))
            queueMicrotask(() => controller.abort(new Error('stop')))
          }),
      }),
    )
    const result = await ctx.tools.execute(call('twice', {}, { signal: controller.signal }))
    expect(seen[0]).toBe(seen[1])
    expect(seen[0]).not.toBe(controller.signal)
    expect(seen[0]!.aborted).toBe(true)
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    expect(listeners(controller.signal)).toBe(0)
  })

  it('a signal first read after the body settled is detached: later caller aborts and listeners stay off the caller', async () => {
    const ctx = await createRuntime()
    const controller = new AbortController()
    let kept: { readonly signal: AbortSignal } | undefined
    ctx.tools.register(
      echoTool('keeper', {
        execute: (_args, exec) => {
          kept = exec
          return 'ok'
        },
      }),
    )
    const result = await ctx.tools.execute(call('keeper', {}, { signal: controller.signal }))
    expect(result.isError).toBe(false)
    const late = kept!.signal
    late.addEventListener('abort', () => {})
    expect(listeners(controller.signal)).toBe(0)
    controller.abort()
    expect(late.aborted).toBe(false)
    expect(kept!.signal).toBe(late)
  })
})
