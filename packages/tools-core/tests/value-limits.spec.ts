// Model arguments and tool results are measured (values, depth, string length) in the one pass
// that snapshots them, before validation; past `valueLimits` a call ends INVALID_ARGS (arguments)
// or INVALID_OUTPUT (results) without its body running. Within them, validation against a
// hostile raw schema (what tools-mcp registers for a server) stays linear.
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import ToolRuntime, {
  DEFAULT_VALUE_LIMITS,
  type JsonValue,
  type ToolDefinition,
  type ToolExecutionResult,
  type ToolRuntimeConfig,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const render = (_args: unknown, value: JsonValue) => [{ type: 'text' as const, text: JSON.stringify(value) }]

function rawTool(
  parameters: ToolDefinition['parameters'],
  execute: () => unknown = () => null,
  counter = { bodies: 0 },
): ToolDefinition {
  return {
    name: 'raw',
    description: 'a raw JSON Schema tool, as tools-mcp registers one',
    parameters,
    output: { schema: {}, render },
    execute: () => {
      counter.bodies++
      return execute() as JsonValue
    },
  }
}

function failure(result: ToolExecutionResult) {
  if (!result.isError) throw new Error('expected a failure')
  return { code: result.error.info?.code, message: result.error.message }
}

function nested(depth: number): unknown {
  let value: unknown = 0
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

async function runtimeWith(config: ToolRuntimeConfig, tool: ToolDefinition): Promise<Context> {
  const ctx = await createRuntime(config)
  ctx.tools.register(tool)
  return ctx
}

describe('valueLimits on model arguments', () => {
  it('arguments past maxNodes are INVALID_ARGS at the member where counting stopped; no body runs', async () => {
    const counter = { bodies: 0 }
    const ctx = await runtimeWith(
      { valueLimits: { maxNodes: 1000 } },
      rawTool({ type: 'object' }, undefined, counter),
    )
    const keys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))
    const { code, message } = failure(await ctx.tools.execute(call('raw', keys)))
    expect(code).toBe('INVALID_ARGS')
    expect(message).toContain("arguments past the runtime's valueLimits.maxNodes")
    expect(message).toMatch(/^invalid arguments: \$: /)
    expect(counter.bodies).toBe(0)
  })

  it('arguments nested past the default maxDepth (128) are INVALID_ARGS at the first level too deep', async () => {
    const ctx = await runtimeWith({}, rawTool({ type: 'object' }))
    const { code, message } = failure(await ctx.tools.execute(call('raw', { v: nested(200) })))
    expect(code).toBe('INVALID_ARGS')
    expect(message).toContain(`$.v${'[0]'.repeat(DEFAULT_VALUE_LIMITS.maxDepth - 1)}:`)
    expect(message).toContain('valueLimits.maxDepth')
    const ok = await ctx.tools.execute(call('raw', { v: nested(DEFAULT_VALUE_LIMITS.maxDepth - 1) }))
    expect(ok.isError).toBe(false)
  })

  it('arguments past maxStringLength are INVALID_ARGS', async () => {
    const ctx = await runtimeWith({ valueLimits: { maxStringLength: 100 } }, rawTool({ type: 'object' }))
    const { code, message } = failure(await ctx.tools.execute(call('raw', { s: 'x'.repeat(101) })))
    expect(code).toBe('INVALID_ARGS')
    expect(message).toContain('$.s:')
  })

  it('executionMode classifies arguments past the limits as exclusive without validating them', async () => {
    const readOnly = { ...rawTool({ type: 'object' }), annotations: { readOnly: true } }
    const ctx = await runtimeWith({ valueLimits: { maxNodes: 10 } }, readOnly)
    expect(ctx.tools.executionMode(call('raw', { a: [1, 2] }))).toBe('parallel')
    expect(ctx.tools.executionMode(call('raw', { a: Array.from({ length: 20 }, () => 1) }))).toBe('exclusive')
  })

  it('an invalid valueLimits fails the config', async () => {
    for (const valueLimits of [
      { maxNodes: 0 },
      { maxDepth: -1 },
      { maxStringLength: 1.5 },
      { other: 1 },
      3,
    ]) {
      const ctx = new Context()
      await expect(ctx.plugin(ToolRuntime, { valueLimits } as ToolRuntimeConfig)).rejects.toThrow(
        /valueLimits/,
      )
    }
  })
})

describe('valueLimits on results', () => {
  it('a result past maxNodes is INVALID_OUTPUT before its output schema runs', async () => {
    const ctx = await runtimeWith(
      { valueLimits: { maxNodes: 100 } },
      rawTool({ type: 'object' }, () => Array.from({ length: 200 }, (_, i) => i)),
    )
    const { code, message } = failure(await ctx.tools.execute(call('raw', {})))
    expect(code).toBe('INVALID_OUTPUT')
    expect(message).toContain("past the runtime's valueLimits")
  })

  it('a result nested past maxDepth is INVALID_OUTPUT', async () => {
    const ctx = await runtimeWith(
      {},
      rawTool({ type: 'object' }, () => nested(129)),
    )
    expect(failure(await ctx.tools.execute(call('raw', {}))).code).toBe('INVALID_OUTPUT')
  })
})

describe('hostile raw schemas stay linear within the limits', () => {
  it('pattern ^(a+)+$ answers a near-match of 100,000 characters at once (backtracking: 2^100000 steps)', async () => {
    const ctx = await runtimeWith(
      {},
      rawTool({ type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } }),
    )
    const ticks = { count: 0 }
    const timer = setInterval(() => ticks.count++, 1)
    const started = performance.now()
    const result = await ctx.tools.execute(call('raw', { q: `${'a'.repeat(100_000)}!` }))
    clearInterval(timer)
    expect(failure(result)).toEqual({
      code: 'INVALID_ARGS',
      message: 'invalid arguments: $.q: expected string matching pattern "^(a+)+$"',
    })
    // Generous: the backtracking engine needed 10 s for 28 characters.
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('a pattern only a backtracking engine can run is refused at registration', async () => {
    const ctx = await createRuntime()
    expect(() =>
      ctx.tools.register(
        rawTool({ type: 'object', properties: { q: { type: 'string', pattern: '(a)\\1' } } }),
      ),
    ).toThrow(/\$\.properties\.q\.pattern: pattern "\(a\)\\\\1" is refused: backreferences/)
  })

  it('an argument object with 100,000 unexpected properties lists 100 of them, not 100,000', async () => {
    const ctx = await runtimeWith(
      {},
      rawTool({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }),
    )
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))
    const result = await ctx.tools.execute(call('raw', keys))
    expect(failure(result).code).toBe('INVALID_ARGS')
    expect(failure(result).message).toContain('… and 81 more')
  })
})
