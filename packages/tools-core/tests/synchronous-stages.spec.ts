import { describe, expect, it } from 'vitest'
import type { ToolExecutionResult, ToolStageEvent } from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

/** The stage events and results the runtime emits, in order, as `stage` / `result:<code|ok>`. */
async function observedRuntime() {
  const ctx = await createRuntime()
  const seen: string[] = []
  ctx.on('tools/stage', (_exec, event: ToolStageEvent) => {
    seen.push(event.stage)
  })
  ctx.on('tools/result', (_exec, result: ToolExecutionResult) => {
    seen.push(result.isError ? `result:${result.error.info?.code}` : 'result:ok')
  })
  return { ctx, seen }
}

describe('the stage driver runs synchronously while every step is synchronous', () => {
  it('publishes a call whose every step is synchronous before execute() returns', async () => {
    const { ctx, seen } = await observedRuntime()
    ctx.tools.register(echoTool())
    const pending = ctx.tools.execute(call('echo', { text: 'hi' }))
    expect(seen).toEqual(['start', 'body-start', 'body-end', 'result:ok'])
    const result = await pending
    expect(result.isError).toBe(false)
    expect(seen).toHaveLength(4)
  })

  it('runs the stages before an asynchronous body at once and the rest once it settles', async () => {
    const { ctx, seen } = await observedRuntime()
    const gate = deferred<string>()
    ctx.tools.register(echoTool('slow', { execute: () => gate.promise }))
    const pending = ctx.tools.execute(call('slow', {}))
    expect(seen).toEqual(['start', 'body-start'])
    gate.resolve('done')
    const result = await pending
    expect(result.isError ? result.error.message : result.value).toBe('done')
    expect(seen).toEqual(['start', 'body-start', 'body-end', 'result:ok'])
  })

  it('publishes failures decided before the body synchronously too (unknown tool, bad arguments, guard)', async () => {
    const { ctx, seen } = await observedRuntime()
    ctx.tools.register(echoTool())
    ctx.tools.guard((exec) => ((exec.arguments as { text?: string }).text === 'no' ? 'refused' : undefined))
    for (const [input, code] of [
      [call('nope'), 'UNKNOWN_TOOL'],
      [call('echo', { text: 1 }), 'INVALID_ARGS'],
      [call('echo', { text: 'no' }), 'DENIED'],
    ] as const) {
      seen.length = 0
      const pending = ctx.tools.execute(input)
      expect(seen.at(-1)).toBe(`result:${code}`)
      expect(((await pending) as { error: { info?: { code: string } } }).error.info?.code).toBe(code)
    }
  })

  it('keeps every abort check on the synchronous path', async () => {
    const { ctx } = await createRuntime().then((ctx) => ({ ctx }))
    const controller = new AbortController()
    // A body that aborts its caller and returns a value: a success after the abort is ABORTED.
    ctx.tools.register(
      echoTool('aborter', {
        execute: () => {
          controller.abort()
          return 'late'
        },
      }),
    )
    const during = await ctx.tools.execute(call('aborter', {}, { signal: controller.signal }))
    expect(during.isError && during.error.info?.code).toBe('ABORTED')

    // A guard that aborts the caller: the body never runs (checked again right before dispatch).
    const second = new AbortController()
    let bodies = 0
    ctx.tools.register(
      echoTool('counted', {
        execute: () => {
          bodies++
          return 'ran'
        },
      }),
    )
    ctx.tools.guard((exec) => {
      if (exec.name === 'counted') second.abort()
      return undefined
    })
    const before = await ctx.tools.execute(call('counted', {}, { signal: second.signal }))
    expect(before.isError && before.error.info?.code).toBe('ABORTED_BEFORE_DISPATCH')
    expect(bodies).toBe(0)
  })

  it('turns a malformed input into a rejection, not a throw', async () => {
    const { ctx } = await observedRuntime()
    const pending = ctx.tools.execute({ callId: 'x', name: 'echo', arguments: {} } as never)
    await expect(pending).rejects.toBeInstanceOf(TypeError)
  })
})
