import { getEventListeners } from 'node:events'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as timeoutPolicy from '../src/index'

const CALLS = 200
const output = {
  schema: { type: 'string' },
  render: (_args: unknown, value: string) => [{ type: 'text' as const, text: value }],
} as const

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

async function setup(shared: () => AbortSignal, peak: { n: number }) {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(timeoutPolicy)
  ctx.tools.register(
    defineTool({
      name: 'budgeted',
      description: 'has a budget, listens on its signal',
      parameters: {},
      timeoutMs: 60_000,
      isConcurrencySafe: () => true,
      output,
      async execute(_args, exec) {
        exec.signal.addEventListener('abort', () => {})
        peak.n = Math.max(peak.n, listeners(shared()))
        await new Promise((r) => setTimeout(r, 1))
        return 'ok'
      },
    }),
  )
  return ctx
}

const maxListenerWarnings = () => warnings.filter((w) => w.name === 'MaxListenersExceededWarning')

describe('listeners under the timeout policy', () => {
  it(`${CALLS} concurrent native calls sharing one signal print no warning and leave no listener`, async () => {
    const controller = new AbortController()
    const peak = { n: 0 }
    const ctx = await setup(() => controller.signal, peak)
    const before = listeners(controller.signal)
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        ctx.tools.execute({ callId: `c${i}`, name: 'budgeted', arguments: {}, signal: controller.signal }),
      ),
    )
    expect(results.every((r) => !r.isError)).toBe(true)
    expect(peak.n).toBeLessThanOrEqual(before + 1)
    expect(listeners(controller.signal)).toBe(before)
    await new Promise((r) => setImmediate(r))
    expect(maxListenerWarnings()).toEqual([])
  })

  for (const sharing of ['their own turn signal', 'the batch signal'] as const) {
    it(`executeBatch of ${CALLS} budgeted calls on ${sharing} prints no warning and leaves no listener`, async () => {
      const batch = new AbortController()
      const turn = sharing === 'the batch signal' ? batch : new AbortController()
      const peak = { n: 0 }
      const ctx = await setup(() => turn.signal, peak)
      const results = await ctx.tools.executeBatch(
        Array.from({ length: CALLS }, (_, i) => ({
          callId: `b${i}`,
          name: 'budgeted',
          arguments: {},
          signal: turn.signal,
        })),
        { signal: batch.signal, maxParallel: CALLS },
      )
      expect(results.every((r) => !r.isError)).toBe(true)
      expect(peak.n).toBeLessThanOrEqual(1)
      expect(listeners(turn.signal)).toBe(0)
      expect(listeners(batch.signal)).toBe(0)
      await new Promise((r) => setImmediate(r))
      expect(maxListenerWarnings()).toEqual([])
    })
  }
})
