import { describe, expect, expectTypeOf, it } from 'vitest'
import { defineTool, type JsonValue, SchemaDefinitionError, UnsupportedJsonSchemaError } from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const ANY_JSON: JsonValue[] = [
  'text',
  '',
  0,
  -1.5,
  1e300,
  true,
  false,
  null,
  [],
  [1, 'a', null],
  {},
  { a: [{}] },
]
const NOT_JSON: unknown[] = [
  new Map(),
  new Set([1]),
  new Date(0),
  new Uint8Array(2),
  // biome-ignore lint/suspicious/noSparseArray: a hole is the non-JSON case under test
  [1, , 2],
  { a: new Map() },
]

const render = (_args: unknown, value: JsonValue) => [{ type: 'text' as const, text: JSON.stringify(value) }]

/** Every way a tool can declare "any JSON value" as its output. */
const outputs = {
  'DSL { type: json }': (value: unknown) =>
    defineTool({
      name: 'out',
      description: '',
      parameters: {},
      output: { schema: { type: 'json' }, render },
      execute: () => value as JsonValue,
    }),
  'raw jsonSchema {}': (value: unknown) =>
    defineTool({
      name: 'out',
      description: '',
      parameters: {},
      output: { jsonSchema: {}, render },
      execute: () => value as JsonValue,
    }),
  'raw jsonSchema { description }': (value: unknown) =>
    defineTool({
      name: 'out',
      description: '',
      parameters: {},
      output: { jsonSchema: { description: 'anything' }, render },
      execute: () => value as JsonValue,
    }),
  'raw ToolDefinition output.schema {}': (value: unknown) => ({
    name: 'out',
    description: '',
    parameters: { type: 'object' as const },
    output: { schema: {}, render },
    execute: () => value as JsonValue,
  }),
}

describe.each(Object.entries(outputs))('any-JSON output via %s', (_label, make) => {
  it.each(ANY_JSON.map((value) => [JSON.stringify(value), value]))('passes %s through', async (_, value) => {
    const ctx = await createRuntime()
    ctx.tools.register(make(value))
    const result = await ctx.tools.execute(call('out'))
    expect(result).toMatchObject({ isError: false, value })
  })

  it('rejects values that are not JSON', async () => {
    for (const value of NOT_JSON) {
      const ctx = await createRuntime()
      ctx.tools.register(make(value))
      const result = await ctx.tools.execute(call('out'))
      expect(result.isError && result.error.info?.code).toBe('INVALID_OUTPUT')
    }
  })
})

describe('any-JSON parameters', () => {
  it.each(ANY_JSON.map((value) => [JSON.stringify(value), value]))(
    'a json field accepts %s',
    async (_, value) => {
      const ctx = await createRuntime()
      ctx.tools.register(
        defineTool({
          name: 'in',
          description: '',
          parameters: {
            v: { type: 'json', required: true },
            list: { type: 'array', items: { type: 'json' } },
          },
          output: { schema: { type: 'json' }, render },
          execute: (args) => [args.v, args.list ?? null],
        }),
      )
      const result = await ctx.tools.execute(call('in', { v: value, list: [value, value] }))
      expect(result).toMatchObject({ isError: false, value: [value, [value, value]] })
    },
  )
})

describe('defineTool output kinds', () => {
  it('types the raw output value as JsonValue', () => {
    const tool = defineTool({
      name: 'raw',
      description: '',
      parameters: { n: { type: 'integer' } },
      output: { jsonSchema: { type: 'array' }, render: (_args, value) => render(_args, value) },
      execute: (args) => [args.n ?? 0],
    })
    expectTypeOf(tool.execute).returns.toEqualTypeOf<JsonValue | Promise<JsonValue>>()
    expect(tool.output.schema).toEqual({ type: 'array' })
    expect(Object.isFrozen(tool.output.schema)).toBe(true)
  })

  it('refuses both or neither output kind, and a raw schema outside the subset', () => {
    const base = { name: 'x', description: '', parameters: {}, execute: () => null }
    // untyped on purpose: these specs are wrong in ways the types already forbid
    const define = defineTool as (spec: unknown) => unknown
    expect(() => define({ ...base, output: { schema: { type: 'json' }, jsonSchema: {}, render } })).toThrow(
      SchemaDefinitionError,
    )
    expect(() => define({ ...base, output: { render } })).toThrow(/exactly one of/)
    expect(() => define({ ...base, output: { jsonSchema: { anyOf: [] }, render } })).toThrow(
      UnsupportedJsonSchemaError,
    )
    // a raw node under the DSL key is a DSL error, never silently reinterpreted
    expect(() => define({ ...base, output: { schema: {}, render } })).toThrow(SchemaDefinitionError)
  })
})
