// DSL bounds through the runtime (SPEC §9): a `defineTool` spec with bounds publishes them in its
// JSON Schema, the registry turns a violation into INVALID_ARGS before the body runs, and the
// SDK text shows real bounds but not the natural-range ones a zod `.int()` emits.

import { createPyRenderContext, createTsRenderContext } from '@dsh/tools-schema'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  defineTool,
  type JsonValue,
  jsonSchemaToPy,
  jsonSchemaToTs,
  type ToolContent,
  type ToolExecutionResult,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const text = (_args: unknown, value: JsonValue): ToolContent => [
  { type: 'text', text: JSON.stringify(value) },
]
const code = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')

/** The SDK text Code Mode renders for a parameter schema (same calls as tools-codemode's SDKs). */
function sdkText(parameters: object): { ts: string; py: string } {
  const ts = createTsRenderContext()
  const py = createPyRenderContext()
  const tsType = jsonSchemaToTs(parameters, ts.named('SearchArgs'))
  jsonSchemaToPy(parameters, py.named('SearchArgs'))
  return { ts: `${ts.declarations()}\n${tsType}`, py: py.declarations() }
}

describe('DSL bounds in defineTool', () => {
  let runs = 0
  const search = defineTool({
    name: 'search',
    description: 'Search.',
    parameters: {
      query: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', required: true },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
    },
    output: { schema: { type: 'json' }, render: text },
    execute: (args) => {
      runs++
      return { query: args.query, limit: args.limit ?? 10 }
    },
  })

  it('publishes the bounds in the parameters JSON Schema', () => {
    expect(search.parameters.properties).toEqual({
      query: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
    })
  })

  it('a violated bound is INVALID_ARGS naming the path; the body never runs', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(search)
    runs = 0
    for (const args of [
      { query: '' },
      { query: '   ' },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 51 },
      { query: 'x', tags: ['a', 'a'] },
      { query: 'x', tags: ['a', 'b', 'c', 'd'] },
    ]) {
      const result = await ctx.tools.execute(call('search', args))
      expect(code(result), JSON.stringify(args)).toBe('INVALID_ARGS')
      const field = Object.keys(args).at(-1)!
      expect(result.isError && result.error.message, JSON.stringify(args)).toContain(`$.${field}`)
    }
    expect(runs).toBe(0)
    expect(code(await ctx.tools.execute(call('search', { query: 'ok', limit: 50, tags: ['a'] })))).toBe('ok')
    expect(runs).toBe(1)
  })

  it('the SDK text shows the bounds', () => {
    const { ts, py } = sdkText(search.parameters)
    for (const fact of [
      '@minLength 1',
      '@maxLength 100',
      '@pattern \\S',
      '@minimum 1',
      '@maximum 50',
      '@maxItems 3',
      '@uniqueItems',
    ])
      expect(ts, fact).toContain(fact)
    for (const fact of ['minLength: 1', 'minimum: 1', 'maximum: 50', 'maxItems: 3'])
      expect(py, fact).toContain(fact)
  })
})

describe('zod bounds in the SDK text', () => {
  const zodTool = defineTool({
    name: 'page',
    description: 'Page through results.',
    parameters: z.object({
      page: z.number().int(),
      size: z.number().int().min(1),
      ratio: z.float64(),
      small: z.int32(),
    }),
    output: { schema: { type: 'json' }, render: text },
    execute: (args) => args.page,
  })

  it('zod emits the safe-integer limits, and the SDK text leaves them out', () => {
    const page = zodTool.parameters.properties?.page as Record<string, unknown>
    // The converter really emits them (else this test would prove nothing).
    expect(page.minimum).toBe(Number.MIN_SAFE_INTEGER)
    expect(page.maximum).toBe(Number.MAX_SAFE_INTEGER)
    const { ts, py } = sdkText(zodTool.parameters)
    for (const text of [ts, py]) {
      expect(text).not.toContain('9007199254740991')
      expect(text).not.toContain('1.7976931348623157e+308')
    }
    // Real bounds stay: `.min(1)` and int32's range.
    expect(ts).toContain('@minimum 1')
    expect(ts).toContain('@minimum -2147483648')
    expect(ts).toContain('@maximum 2147483647')
    expect(py).toContain('minimum: 1')
  })

  it('the natural bounds are still enforced', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(zodTool)
    const args = { page: 2 ** 60, size: 1, ratio: 0.5, small: 1 }
    expect(code(await ctx.tools.execute(call('page', args)))).toBe('INVALID_ARGS')
  })
})
