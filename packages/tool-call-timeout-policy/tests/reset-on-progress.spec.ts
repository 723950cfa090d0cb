import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as timeoutPolicy from '../src/index'

const TICK = 20
const output = {
  schema: { type: 'number' },
  render: (_args: unknown, value: number) => [{ type: 'text' as const, text: String(value) }],
} as const

/**
 * A cooperative body that reports progress every TICK ms for `ticks` ticks (unless `silent`),
 * stopping early when its signal aborts. Its value is the number of ticks it completed.
 */
function ticking(name: string, ticks: number, silent = false) {
  return defineTool({
    name,
    description: 'reports progress on a timer',
    parameters: {},
    timeoutMs: 2 * TICK + TICK / 2,
    output,
    async execute(_args, exec): Promise<number> {
      let done = 0
      while (done < ticks && !exec.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, TICK))
        if (exec.signal.aborted) break
        done++
        if (!silent) exec.progress({ progress: done, total: ticks })
      }
      if (exec.signal.aborted) throw exec.signal.reason
      return done
    },
  })
}

let ctx: Context
let calls = 0
const execute = (name: string) =>
  ctx.tools.execute({ callId: `c${++calls}`, name, arguments: {}, signal: new AbortController().signal })

/** Run `promise` to completion under the fake clock. */
async function settle(promise: Promise<ToolExecutionResult>): Promise<ToolExecutionResult> {
  let done = false
  void promise.finally(() => {
    done = true
  })
  for (let i = 0; i < 100 && !done; i++) await vi.advanceTimersByTimeAsync(TICK / 2)
  return promise
}

beforeEach(async () => {
  vi.useFakeTimers()
  ctx = new Context()
  await ctx.plugin(ToolRuntime)
})
afterEach(() => vi.useRealTimers())

describe('resetTimeoutOnProgress', () => {
  it('a body reporting every X ms outlives a 2.5X deadline only with the flag', async () => {
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: true })
    ctx.tools.register(ticking('long', 8))
    const result = await settle(execute('long'))
    expect(result.isError === false && result.value).toBe(8)
  })

  it('without the flag the same body times out after two ticks', async () => {
    await ctx.plugin(timeoutPolicy)
    let ticks = 0
    ctx.on('tools/progress', () => {
      ticks++
    })
    ctx.tools.register(ticking('long', 8))
    const result = await settle(execute('long'))
    expect(result.isError === true && result.error.info?.code).toBe('TOOL_TIMEOUT')
    expect(ticks).toBe(2)
  })

  it('with the flag a silent body still times out: only progress extends the deadline', async () => {
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: true })
    ctx.tools.register(ticking('quiet', 8, true))
    const result = await settle(execute('quiet'))
    expect(result.isError === true && result.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it("one call's progress never extends another call's deadline", async () => {
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: true })
    ctx.tools.register(ticking('chatty', 8))
    ctx.tools.register(ticking('quiet', 8, true))
    const [chatty, quiet] = await Promise.all([settle(execute('chatty')), settle(execute('quiet'))])
    expect(chatty.isError).toBe(false)
    expect(quiet.isError === true && quiet.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it('progress after the deadline fired does not revive the call', async () => {
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: true })
    ctx.tools.register(
      defineTool({
        name: 'late',
        description: 'reports after its deadline',
        parameters: {},
        timeoutMs: TICK,
        output,
        async execute(_args, exec): Promise<number> {
          await new Promise((resolve) => setTimeout(resolve, 3 * TICK))
          exec.progress({ message: 'too late' })
          return 1
        },
      }),
    )
    const result = await settle(execute('late'))
    expect(result.isError === true && result.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it('per-tool opt-in: only the named tools are extended by their progress', async () => {
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: { tools: ['opted'] } })
    ctx.tools.register(ticking('opted', 8))
    ctx.tools.register(ticking('other', 8))
    const [opted, other] = await Promise.all([settle(execute('opted')), settle(execute('other'))])
    expect(opted.isError === false && opted.value).toBe(8)
    expect(other.isError === true && other.error.info?.code).toBe('TOOL_TIMEOUT')
  })

  it('a direct apply() with an invalid config throws instead of installing a half policy', () => {
    expect(() => timeoutPolicy.apply(ctx, { resetTimeoutOnProgress: 'yes' } as never)).toThrow(TypeError)
  })

  it('config is validated: a boolean or { tools: [names] } resetTimeoutOnProgress', () => {
    const check = (value: unknown) => timeoutPolicy.Config['~standard'].validate(value)
    expect(check(undefined)).toEqual({ value: { resetTimeoutOnProgress: false } })
    expect(check({})).toEqual({ value: { resetTimeoutOnProgress: false } })
    expect(check({ resetTimeoutOnProgress: true })).toEqual({ value: { resetTimeoutOnProgress: true } })
    const named = check({ resetTimeoutOnProgress: { tools: ['bash'] } })
    expect(named).toEqual({ value: { resetTimeoutOnProgress: { tools: ['bash'] } } })
    // a validated config validates to itself
    expect(check((named as { value: unknown }).value)).toEqual(named)
    for (const bad of [
      { resetTimeoutOnProgress: 'yes' },
      { resetTimeoutOnProgress: 1 },
      { resetTimeoutOnProgress: { tools: [] } },
      { resetTimeoutOnProgress: { tools: [''] } },
      { resetTimeoutOnProgress: { tools: ['bash'], other: 1 } },
      { other: 1 },
      [],
      'x',
      3,
    ]) {
      expect('issues' in (check(bad) as object)).toBe(true)
    }
    // Worded like argument errors (the shared configSchema form).
    expect(check({ other: 1 })).toEqual({
      issues: [{ message: '$.other: unexpected property "other"', path: ['other'] }],
    })
  })
})
