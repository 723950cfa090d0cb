// A Standard Schema `output.schema` is checked by the library's own `validate` (SPEC §9), sync or
// async: refinements hold, a failure is INVALID_OUTPUT with the library's messages and paths,
// and the library's output value (after transforms) is what is rendered and published.
import { toJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import {
  defineTool,
  type JsonValue,
  type StandardSchemaV1,
  type ToolContent,
  type ToolExecutionResult,
} from '../src/index'
import { call, createRuntime, deferred } from './fixtures/runtime'

type Label = { label: string }
type LabelSchema = StandardSchemaV1<Label, Label>
type Raw = { raw: string }

/** The same output schema in each library: `label` is trimmed and must not be blank. */
const libraries: Record<
  string,
  { schema: LabelSchema; parameters: StandardSchemaV1<Raw, Raw>; converter?: (s: never) => unknown }
> = {
  zod: {
    parameters: z.object({ raw: z.string() }),
    schema: z.object({
      label: z
        .string()
        .trim()
        .refine((s) => s.length > 0, 'label must not be blank'),
    }),
  },
  valibot: {
    parameters: v.object({ raw: v.string() }),
    schema: v.object({
      label: v.pipe(
        v.string(),
        v.trim(),
        v.check((s) => s.length > 0, 'label must not be blank'),
      ),
    }),
    // valibot has no `~standard.jsonSchema`: its documented converter is passed explicitly
    converter: (schema: never) => toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12' }),
  },
  arktype: {
    parameters: type({ raw: 'string' }),
    schema: type({
      label: type('string')
        .pipe((s) => s.trim())
        .narrow((s, ctx) => s.length > 0 || ctx.reject({ message: 'label must not be blank' })),
    }),
  },
}

const text = (_args: unknown, value: JsonValue): ToolContent => [
  { type: 'text', text: JSON.stringify(value) },
]

const code = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')
const message = (result: ToolExecutionResult) => (result.isError ? result.error.message : '')

/** A tool whose body returns its `raw` argument, rendered as the published value. */
function labelTool(
  parameters: StandardSchemaV1<Raw, Raw>,
  schema: StandardSchemaV1,
  rendered: unknown[],
  converter?: (s: never) => unknown,
) {
  return defineTool({
    name: 'label',
    description: 'Return a label.',
    parameters,
    toJsonSchema: converter as never,
    output: {
      schema: schema as LabelSchema,
      render: (_args, value) => {
        rendered.push(value)
        return text(_args, value)
      },
    },
    execute: (args) => ({ label: args.raw }),
  })
}

describe('Standard Schema output.schema', () => {
  for (const [library, { parameters, schema, converter }] of Object.entries(libraries)) {
    it(`${library}: the transform's output is published and rendered; a failing refinement is INVALID_OUTPUT`, async () => {
      const ctx = await createRuntime()
      const rendered: unknown[] = []
      const tool = labelTool(parameters, schema, rendered, converter)
      expect(tool.parseOutput).toBeTypeOf('function')
      ctx.tools.register(tool)
      const ok = await ctx.tools.execute(call('label', { raw: '  Ada  ' }))
      expect(!ok.isError && ok.value).toEqual({ label: 'Ada' })
      expect(ok.content).toEqual([{ type: 'text', text: '{"label":"Ada"}' }])
      expect(Object.isFrozen(!ok.isError && ok.value)).toBe(true)
      const blank = await ctx.tools.execute(call('label', { raw: '   ' }))
      expect(code(blank)).toBe('INVALID_OUTPUT')
      expect(message(blank)).toContain('violates its output schema')
      expect(message(blank)).toContain('$.label: label must not be blank')
      // a value the library refuses is never rendered
      expect(rendered).toEqual([{ label: 'Ada' }])
    })
  }

  it('a transform that changes the type publishes the library output, checked against its JSON Schema', async () => {
    const ctx = await createRuntime()
    const counted = z.object({ words: z.string().transform((s) => s.split(/\s+/).filter(Boolean).length) })
    const tool = defineTool({
      name: 'count',
      description: 'Count words.',
      parameters: z.object({ text: z.string() }),
      // zod cannot describe a transform's output: its converter is told to leave it open
      toJsonSchema: (schema: typeof counted, io) =>
        io === 'output'
          ? { type: 'object', properties: { words: { type: 'integer', minimum: 0 } }, required: ['words'] }
          : z.toJSONSchema(schema, { io }),
      output: {
        schema: counted,
        // the value is the schema's output type; the body returns its input type
        render: (args, value) => {
          expectTypeOf(value).toEqualTypeOf<{ words: number }>()
          return text(args, value)
        },
      },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>()
        return { words: args.text }
      },
    })
    ctx.tools.register(tool)
    const result = await ctx.tools.execute(call('count', { text: 'one two  three' }))
    expect(!result.isError && result.value).toEqual({ words: 3 })
  })

  it('the published value must still match the declared JSON Schema after the transform', async () => {
    const ctx = await createRuntime()
    const negative = z.object({ n: z.number().transform((n) => -n) })
    ctx.tools.register(
      defineTool({
        name: 'negate',
        description: '',
        parameters: z.object({ n: z.number() }),
        toJsonSchema: () => ({ type: 'object', properties: { n: { type: 'number', minimum: 0 } } }),
        output: { schema: negative, render: text },
        execute: (args) => ({ n: args.n }),
      }),
    )
    const result = await ctx.tools.execute(call('negate', { n: 2 }))
    expect(code(result)).toBe('INVALID_OUTPUT')
    expect(message(result)).toContain('$.n')
  })

  it('a transform whose output is not lossless JSON is INVALID_OUTPUT', async () => {
    const ctx = await createRuntime()
    for (const [name, make] of [
      ['to_date', (s: string) => new Date(s)],
      ['to_nan', () => Number.NaN],
      ['to_function', () => () => 1],
    ] as const) {
      const schema = z.string().transform(make as (s: string) => unknown)
      ctx.tools.register(
        defineTool({
          name,
          description: '',
          parameters: z.object({}),
          toJsonSchema: (_s: unknown, io) => (io === 'input' ? { type: 'object' } : {}),
          output: { schema, render: text },
          execute: () => '2026-01-01',
        }),
      )
      const result = await ctx.tools.execute(call(name, {}))
      expect(code(result), name).toBe('INVALID_OUTPUT')
      expect(message(result), name).toContain('not lossless JSON')
    }
  })

  it('an async validate is awaited (zod async refinement), in a single call and in a batch', async () => {
    const ctx = await createRuntime()
    let checks = 0
    const known = z.object({
      id: z.string().refine(async (id) => {
        checks++
        return id !== 'missing'
      }, 'unknown id'),
    })
    ctx.tools.register(
      defineTool({
        name: 'lookup',
        description: '',
        parameters: z.object({ id: z.string() }),
        output: { schema: known, render: text },
        execute: async (args) => ({ id: args.id }),
      }),
    )
    ctx.tools.register(
      defineTool({
        name: 'lookup_sync_body',
        description: '',
        parameters: z.object({ id: z.string() }),
        output: { schema: known, render: text },
        execute: (args) => ({ id: args.id }),
      }),
    )
    for (const name of ['lookup', 'lookup_sync_body']) {
      const ok = await ctx.tools.execute(call(name, { id: 'a' }))
      expect(!ok.isError && ok.value).toEqual({ id: 'a' })
      const bad = await ctx.tools.execute(call(name, { id: 'missing' }))
      expect(code(bad)).toBe('INVALID_OUTPUT')
      expect(message(bad)).toContain('$.id: unknown id')
    }
    const batch = await ctx.tools.executeBatch([
      call('lookup', { id: 'b' }),
      call('lookup', { id: 'missing' }),
      call('lookup_sync_body', { id: 'c' }),
    ])
    expect(batch.map(code)).toEqual(['ok', 'INVALID_OUTPUT', 'ok'])
    expect(checks).toBeGreaterThanOrEqual(7)
  })

  it('a hand-written async Standard Schema transforms the value it resolves', async () => {
    const ctx = await createRuntime()
    const upper: StandardSchemaV1<string, string> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) =>
          typeof value === 'string' ? { value: value.toUpperCase() } : { issues: [{ message: 'not text' }] },
        jsonSchema: { input: () => ({ type: 'string' }), output: () => ({ type: 'string' }) },
      },
    }
    ctx.tools.register(
      defineTool({
        name: 'shout',
        description: '',
        parameters: z.object({ text: z.unknown() }),
        output: { schema: upper, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: (args) => args.text as string,
      }),
    )
    const ok = await ctx.tools.execute(call('shout', { text: 'hi' }))
    expect(!ok.isError && ok.value).toBe('HI')
    expect(ok.content).toEqual([{ type: 'text', text: 'HI' }])
    const bad = await ctx.tools.execute(call('shout', { text: 3 }))
    expect(code(bad)).toBe('INVALID_OUTPUT')
    expect(message(bad)).toContain('$: not text')
  })

  it('a throwing, rejecting or malformed validate is INVALID_OUTPUT with a clear message, never a crash', async () => {
    const ctx = await createRuntime()
    const hostile = (validate: (value: unknown) => unknown): StandardSchemaV1 => ({
      '~standard': {
        version: 1,
        vendor: 'hostile',
        validate: validate as StandardSchemaV1['~standard']['validate'],
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({}) },
      },
    })
    const cases: [string, StandardSchemaV1, RegExp][] = [
      [
        'throws',
        hostile(() => {
          throw new Error('boom')
        }),
        /threw while validating: boom/,
      ],
      ['rejects', hostile(() => Promise.reject(new Error('late boom'))), /threw while validating: late boom/],
      ['returns_nothing', hostile(() => undefined), /threw while validating/],
      ['bad_issues', hostile(() => ({ issues: 7 })), /threw while validating/],
      ['no_issues', hostile(() => ({ issues: [] })), /violates its output schema: \$: invalid/],
      [
        'hostile_message',
        hostile(() => ({
          issues: [
            {
              get message(): string {
                throw new Error('accessor')
              },
            },
          ],
        })),
        /threw while validating: accessor/,
      ],
    ]
    for (const [name, schema, expected] of cases) {
      ctx.tools.register(
        defineTool({
          name: `${name}_out`,
          description: '',
          parameters: z.object({}),
          output: { schema, render: text },
          execute: () => ({ a: 1 }),
        }),
      )
      const result = await ctx.tools.execute(call(`${name}_out`, {}))
      expect(code(result), name).toBe('INVALID_OUTPUT')
      expect(message(result), name).toMatch(expected)
    }
    // the runtime still works
    ctx.tools.register(
      defineTool({
        name: 'fine',
        description: '',
        parameters: z.object({}),
        output: { schema: z.object({ a: z.number() }), render: text },
        execute: () => ({ a: 1 }),
      }),
    )
    expect(code(await ctx.tools.execute(call('fine', {})))).toBe('ok')
  })

  it('a validate that never settles is abandoned as ABORTED when the caller aborts', async () => {
    const ctx = await createRuntime()
    let started = 0
    const never: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'stuck',
        validate: () => {
          started++
          return new Promise(() => {})
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({}) },
      },
    }
    ctx.tools.register(
      defineTool({
        name: 'stuck',
        description: '',
        parameters: z.object({}),
        output: { schema: never, render: text },
        execute: () => ({}),
      }),
    )
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('stuck', {}, { signal: controller.signal }))
    const ready = deferred<void>()
    // wait (a bounded number of turns) until the check has started, then abort
    let turns = 0
    const poll = () => (started > 0 || ++turns > 10_000 ? ready.resolve() : setImmediate(poll))
    poll()
    await ready.promise
    expect(started).toBe(1)
    controller.abort()
    const result = await pending
    expect(code(result)).toBe('ABORTED')
    expect(message(result)).toContain('output of `stuck` was being validated')
  })

  it('a post-execute value replacement and a wrapper-authored success go through the library too', async () => {
    const ctx = await createRuntime()
    const { parameters, schema } = libraries.zod!
    ctx.tools.register(labelTool(parameters, schema, []))
    const replaced = ctx.on('tools/post-execute', async () => ({
      kind: 'accept',
      value: { label: '  Grace ' },
    }))
    const ok = await ctx.tools.execute(call('label', { raw: 'x' }))
    expect(!ok.isError && ok.value).toEqual({ label: 'Grace' })
    replaced()
    const blanked = ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: { label: ' ' } }))
    expect(code(await ctx.tools.execute(call('label', { raw: 'x' })))).toBe('INVALID_OUTPUT')
    blanked()
    ctx.on('tools/execute', () =>
      Promise.resolve({ isError: false, value: { label: ' Lin ' }, content: [] } as ToolExecutionResult),
    )
    const wrapped = await ctx.tools.execute(call('label', { raw: 'x' }))
    expect(!wrapped.isError && wrapped.value).toEqual({ label: 'Lin' })
  })

  it('tools with a DSL or raw JSON Schema output carry no parseOutput', () => {
    const dsl = defineTool({
      name: 'dsl',
      description: '',
      parameters: {},
      output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
      execute: () => 'x',
    })
    const raw = defineTool({
      name: 'raw',
      description: '',
      parameters: {},
      output: { jsonSchema: { type: 'string' }, render: text },
      execute: () => 'x',
    })
    expect(dsl.parseOutput).toBeUndefined()
    expect(raw.parseOutput).toBeUndefined()
  })
})
