import { describe, expect, it } from 'vitest'
import { defineTool, ToolRegistrationError } from '../src/index'
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
