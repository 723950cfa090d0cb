import { describe, expect, it } from 'vitest'
import { defineTool, type ToolExecutionResult, ToolRegistrationError } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

const render = (_args: unknown, value: string) => [{ type: 'text' as const, text: value }]

describe('annotations', () => {
  it('defineTool keeps annotations frozen on the definition and get() reports them', async () => {
    const ctx = await createRuntime()
    const tool = defineTool({
      name: 'wipe',
      description: 'Wipe.',
      parameters: {},
      output: { schema: { type: 'string' }, render },
      execute: () => 'done',
      annotations: { destructive: true, idempotent: true, openWorld: false },
    })
    expect(tool.annotations).toEqual({ destructive: true, idempotent: true, openWorld: false })
    expect(Object.isFrozen(tool.annotations)).toBe(true)
    ctx.tools.register(tool)
    expect(ctx.tools.get('wipe')?.annotations?.destructive).toBe(true)
  })

  it('readOnly implies concurrency-safe for valid arguments, DSL and raw definitions alike', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('dsl_reader', {}))
    ctx.tools.register({ ...echoTool('reader'), annotations: { readOnly: true } })
    ctx.tools.register(
      defineTool({
        name: 'dsl_ro',
        description: 'Read only.',
        parameters: { text: { type: 'string' } },
        output: { schema: { type: 'string' }, render },
        execute: () => 'x',
        annotations: { readOnly: true },
      }),
    )
    expect(ctx.tools.executionMode(call('dsl_reader'))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('reader'))).toBe('parallel')
    expect(ctx.tools.executionMode(call('dsl_ro'))).toBe('parallel')
    expect(ctx.tools.executionMode(call('dsl_ro', { text: 3 }))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('dsl_ro', { when: new Date() }))).toBe('exclusive')
  })

  it('an explicit isConcurrencySafe overrides readOnly', async () => {
    const ctx = await createRuntime()
    ctx.tools.register({
      ...echoTool('ro_but_not', { isConcurrencySafe: () => false }),
      annotations: { readOnly: true },
    })
    ctx.tools.register({ ...echoTool('ro_false'), annotations: { readOnly: false } })
    expect(ctx.tools.executionMode(call('ro_but_not'))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('ro_false'))).toBe('exclusive')
  })

  it('malformed annotations are a registration error', async () => {
    const ctx = await createRuntime()
    const bad: unknown[] = [null, 'readOnly', [], { readOnly: 'yes' }, { sneaky: true }]
    for (const annotations of bad) {
      expect(() => ctx.tools.register({ ...echoTool('bad'), annotations } as never)).toThrow(
        ToolRegistrationError,
      )
    }
    expect(ctx.tools.get('bad')).toBeUndefined()
  })
})

// Annotations are the one source of effects (SPEC §13.2): a retry re-runs only idempotent tools.
describe('annotations decide retries', () => {
  /** A tool that fails its first attempt, counting body runs; `idempotent` as given. */
  function flaky(name: string, runs: { count: number }, idempotent?: boolean) {
    return {
      ...echoTool(name, {
        execute: () => {
          runs.count++
          if (runs.count === 1) throw new Error('first attempt fails')
          return 'second attempt'
        },
      }),
      ...(idempotent === undefined ? {} : { annotations: { idempotent } }),
    }
  }
  const retryOnce = (_exec: unknown, next: () => Promise<ToolExecutionResult>) =>
    next().then((first) => (first.isError ? next() : first))

  it('a wrapper calling next() again never runs the body of a tool not annotated idempotent twice', async () => {
    for (const idempotent of [undefined, false]) {
      const ctx = await createRuntime()
      const runs = { count: 0 }
      ctx.tools.register(flaky('charge_card', runs, idempotent))
      ctx.on('tools/execute', retryOnce)
      const result = await ctx.tools.execute(call('charge_card'))
      expect(runs.count).toBe(1)
      expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
      expect(result.isError && result.error.message).toMatch(/not annotated `idempotent: true`/)
    }
  })

  it('the same retry re-runs a tool annotated idempotent: true', async () => {
    const ctx = await createRuntime()
    const runs = { count: 0 }
    ctx.tools.register(flaky('lookup', runs, true))
    ctx.on('tools/execute', retryOnce)
    const result = await ctx.tools.execute(call('lookup'))
    expect(runs.count).toBe(2)
    expect(result.isError === false && result.value).toBe('second attempt')
  })

  it('in executeBatch too, a non-idempotent sibling runs once', async () => {
    const ctx = await createRuntime()
    const once = { count: 0 }
    const twice = { count: 0 }
    ctx.tools.register(flaky('charge_card', once))
    ctx.tools.register(flaky('lookup', twice, true))
    ctx.on('tools/execute', retryOnce)
    await ctx.tools.executeBatch([call('charge_card'), call('lookup')])
    expect([once.count, twice.count]).toEqual([1, 2])
  })
})

describe('readOnly decides scheduling', () => {
  /** A tool whose bodies record how many run at once. */
  function overlapping(name: string, active: { now: number; peak: number }, extra: object) {
    return {
      ...echoTool(name, {
        execute: async () => {
          active.now++
          active.peak = Math.max(active.peak, active.now)
          await new Promise((resolve) => setImmediate(resolve))
          active.now--
          return 'ok'
        },
      }),
      ...extra,
    }
  }

  it('executeBatch runs readOnly bodies together, unless isConcurrencySafe says otherwise', async () => {
    const cases = [
      [{ annotations: { readOnly: true } }, 3],
      [{ annotations: { readOnly: true }, isConcurrencySafe: () => false }, 1],
      [{ annotations: { readOnly: false } }, 1],
      [{ annotations: { idempotent: true } }, 1],
    ] as const
    for (const [extra, peak] of cases) {
      const ctx = await createRuntime()
      const active = { now: 0, peak: 0 }
      ctx.tools.register(overlapping('probe', active, extra))
      await ctx.tools.executeBatch([call('probe'), call('probe'), call('probe')])
      expect(active.peak, JSON.stringify(extra)).toBe(peak)
    }
  })
})
