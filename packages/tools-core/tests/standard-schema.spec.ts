import { toJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import {
  defineTool,
  type JsonValue,
  SchemaDefinitionError,
  type StandardSchemaV1,
  type ToolContent,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const text = (_args: unknown, value: JsonValue): ToolContent => [
  { type: 'text', text: JSON.stringify(value) },
]

/** The same tool in each library: `name` (trimmed by a transform) and an optional `count`. */
const libraries = {
  zod: z.object({
    name: z
      .string()
      .refine((s) => s.trim().length > 0, 'name must not be blank')
      .transform((s) => s.trim()),
    count: z.number().optional(),
  }),
  valibot: v.object({
    name: v.pipe(
      v.string(),
      v.check((s) => s.trim().length > 0, 'name must not be blank'),
      v.transform((s) => s.trim()),
    ),
    count: v.optional(v.number()),
  }),
  arktype: type({
    name: type('string')
      .narrow((s, ctx) => s.trim().length > 0 || ctx.reject({ message: 'name must not be blank' }))
      .pipe((s) => s.trim()),
    'count?': 'number',
  }),
}

type Greet = { name: string; count?: number | undefined }
type GreetSchema = StandardSchemaV1<Greet, Greet>

// valibot carries no `~standard.jsonSchema`: its documented converter is passed explicitly
const valibotConverter = (schema: v.GenericSchema) =>
  toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12' })

function greetTool(schema: GreetSchema, seen: unknown[], converter?: typeof valibotConverter) {
  return defineTool({
    name: 'greet',
    description: 'Greet.',
    parameters: schema,
    toJsonSchema: converter,
    output: { schema: { type: 'json' }, render: text },
    execute: (args) => {
      seen.push(args)
      return 'ok'
    },
  })
}

describe('Standard Schema parameters', () => {
  for (const [library, schema] of Object.entries(libraries)) {
    it(`${library}: refinements and transforms hold and the body receives the schema's output`, async () => {
      const ctx = await createRuntime()
      const seen: unknown[] = []
      ctx.tools.register(
        greetTool(schema as GreetSchema, seen, library === 'valibot' ? valibotConverter : undefined),
      )
      const ok = await ctx.tools.execute(call('greet', { name: '  Ada  ', count: 2 }))
      expect(ok.isError).toBe(false)
      expect(seen).toEqual([{ name: 'Ada', count: 2 }])
      const blank = await ctx.tools.execute(call('greet', { name: '   ' }))
      expect(blank.isError && blank.error.info?.code).toBe('INVALID_ARGS')
      expect(blank.isError && blank.error.message).toContain('$.name')
      expect(blank.isError && blank.error.message).toContain('name must not be blank')
      expect(seen).toHaveLength(1)
      // the JSON Schema the model sees comes from Standard JSON Schema
      const parameters = ctx.tools.schemas()[0]!.parameters
      expect(parameters.type).toBe('object')
      expect(parameters.properties?.name).toMatchObject({ type: 'string' })
      expect(parameters.required).toEqual(['name'])
    })
  }

  it('an async refinement is awaited before policy, and its issues are INVALID_ARGS', async () => {
    const ctx = await createRuntime()
    const order: string[] = []
    ctx.on('tools/pre-execute', (_e, next) => {
      order.push('policy')
      return next()
    })
    ctx.tools.register(
      defineTool({
        name: 'lookup',
        description: 'Look up.',
        parameters: z.object({
          id: z.string().refine(async (id) => {
            order.push('refine')
            return id !== 'missing'
          }, 'unknown id'),
        }),
        output: { schema: { type: 'json' }, render: text },
        execute: () => {
          order.push('body')
          return null
        },
      }),
    )
    expect((await ctx.tools.execute(call('lookup', { id: 'a' }))).isError).toBe(false)
    const bad = await ctx.tools.execute(call('lookup', { id: 'missing' }))
    expect(bad.isError && bad.error.info?.code).toBe('INVALID_ARGS')
    // zod may run an async refinement twice (a sync attempt, then async): count the rest
    expect(order.filter((step) => step !== 'refine')).toEqual(['policy', 'body'])
    expect(order.indexOf('refine')).toBeLessThan(order.indexOf('policy'))
    expect(order.at(-1)).toBe('refine')
    const batch = await ctx.tools.executeBatch([
      call('lookup', { id: 'b' }),
      call('lookup', { id: 'missing' }),
    ])
    expect(batch.map((r) => r.isError)).toEqual([false, true])
  })

  it('a throwing validator is a tool failure, not a crash', async () => {
    const ctx = await createRuntime()
    const hostile = {
      '~standard': {
        version: 1 as const,
        vendor: 'hostile',
        validate: () => {
          throw new Error('boom')
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    }
    ctx.tools.register(
      defineTool({
        name: 'hostile',
        description: '',
        parameters: hostile,
        output: { schema: { type: 'json' }, render: text },
        execute: () => null,
      }),
    )
    const result = await ctx.tools.execute(call('hostile', {}))
    expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.isError && result.error.message).toContain('boom')
  })

  it('uses the explicitly passed converter, and refuses a schema with neither converter nor jsonSchema', () => {
    const bare = v.object({ a: v.string() })
    expect(() =>
      defineTool({
        name: 'bare',
        description: '',
        parameters: bare,
        output: { schema: { type: 'json' }, render: text },
        execute: () => null,
      }),
    ).toThrow(SchemaDefinitionError)
    let calls = 0
    const tool = defineTool({
      name: 'bare',
      description: '',
      parameters: bare,
      toJsonSchema: (_schema: typeof bare, io) => {
        calls++
        expect(io).toBe('input')
        return { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
      },
      output: { schema: { type: 'json' }, render: text },
      execute: () => null,
    })
    expect(calls).toBe(1)
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    })
  })

  it('accepts a Standard Schema as output.schema and types args and value from the schemas', async () => {
    const ctx = await createRuntime()
    const tool = defineTool({
      name: 'sum',
      description: 'Add.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      output: { schema: z.object({ total: z.number() }), render: text },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number }>()
        return { total: args.a + args.b }
      },
    })
    expect(tool.output.schema).toMatchObject({ type: 'object', properties: { total: { type: 'number' } } })
    ctx.tools.register(tool)
    const result = await ctx.tools.execute(call('sum', { a: 1, b: 2 }))
    expect(!result.isError && result.value).toEqual({ total: 3 })
  })

  it('a DSL spec is never taken for a Standard Schema (a field named ~standard stays a field)', () => {
    const tool = defineTool({
      name: 'odd',
      description: '',
      parameters: { '~standard': { type: 'string' } },
      output: { schema: { type: 'json' }, render: text },
      execute: () => null,
    })
    expect(tool.parameters.properties).toHaveProperty('~standard')
    expect(tool.parseArguments).toBeUndefined()
  })
})
