import { describe, expect, it } from 'vitest'
import {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  type JsonValue,
  providerArgsToCanonical,
  SchemaDefinitionError,
  toProviderSchema,
} from '../src/index'
import { STACK_SAFE_DEPTH } from './fixtures/stack-depth'

const params = (properties: Record<string, JsonValue>, required: string[] = []): JsonValue => ({
  type: 'object',
  properties,
  required,
})

describe('openai-strict conversion', () => {
  it('makes every property required and optional ones nullable, and closes every object', () => {
    const { schema, changes } = toProviderSchema(
      params({ a: { type: 'string' }, b: { type: 'object', properties: { c: { type: 'integer' } } } }, ['a']),
      'openai-strict',
    )
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: {
          type: ['object', 'null'],
          properties: { c: { type: ['integer', 'null'] } },
          required: ['c'],
          additionalProperties: false,
        },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    })
    expect(changes.map((c) => c.path)).toContain('$.properties.b')
    expect(changes.map((c) => c.path)).toContain('$.properties.b.properties.c')
    expect(checkOpenAiStrictSchema(schema)).toEqual([])
  })

  it('folds unsupported keywords into the description and records each', () => {
    const { schema, changes } = toProviderSchema(
      params({ name: { type: 'string', description: 'Name', minLength: 2, format: 'uri' } }, ['name']),
      'openai-strict',
    )
    expect((schema as { properties: { name: { description: string } } }).properties.name.description).toBe(
      'Name (minLength: 2; format: "uri")',
    )
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '$.properties.name.minLength' }),
        expect.objectContaining({ path: '$.properties.name.format' }),
      ]),
    )
  })

  it('keeps null as a value for an optional property whose schema accepts null', () => {
    const schema = params({ n: { type: ['integer', 'null'] }, s: { type: 'string' } })
    const canonical = providerArgsToCanonical({ n: null, s: null }, schema, 'openai-strict')
    expect(canonical).toEqual({ n: null })
  })

  it('sends free-form values and dictionaries as JSON strings and decodes them back', () => {
    const schema = params({ any: {}, env: { type: 'object', additionalProperties: { type: 'string' } } }, [
      'any',
      'env',
    ])
    const converted = toProviderSchema(schema, 'openai-strict').schema as {
      properties: Record<string, { type: string }>
    }
    expect(converted.properties.any!.type).toBe('string')
    expect(converted.properties.env!.type).toBe('string')
    expect(
      providerArgsToCanonical({ any: '[1,{"x":null}]', env: '{"A":"1"}' }, schema, 'openai-strict'),
    ).toEqual({
      any: [1, { x: null }],
      env: { A: '1' },
    })
  })

  it('relaxes oneOf to anyOf and moves definitions to $defs', () => {
    const schema = {
      type: 'object',
      definitions: { id: { type: 'string' } },
      properties: { x: { oneOf: [{ $ref: '#/definitions/id' }, { type: 'integer' }] } },
      required: ['x'],
    }
    const converted = toProviderSchema(schema, 'openai-strict').schema
    expect(converted).toMatchObject({
      $defs: { id: { type: 'string' } },
      properties: { x: { anyOf: [{ $ref: '#/$defs/id' }, { type: 'integer' }] } },
    })
    expect(checkOpenAiStrictSchema(converted)).toEqual([])
  })
})

describe('gemini conversion', () => {
  it('inlines references, cuts recursion and uses OpenAPI nullable and upper-case types', () => {
    const schema = {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: { next: { $ref: '#/$defs/node' }, v: { type: ['string', 'null'] } },
        },
      },
      properties: { head: { $ref: '#/$defs/node' } },
    }
    const { schema: converted, changes } = toProviderSchema(schema, 'gemini')
    expect(JSON.stringify(converted)).not.toContain('$ref')
    expect(converted).toMatchObject({ type: 'OBJECT', properties: { head: { type: 'OBJECT' } } })
    expect(JSON.stringify(converted)).toContain('"nullable":true')
    expect(changes.some((c) => c.change.includes('recursive `node` cut'))).toBe(true)
    expect(checkGeminiSchema(converted)).toEqual([])
    const deep = { head: { next: { next: { next: '{"v":"deep","next":{"v":null}}' } } } }
    expect(providerArgsToCanonical(deep, schema, 'gemini')).toEqual({
      head: { next: { next: { next: { v: 'deep', next: { v: null } } } } },
    })
  })

  it('folds non-string enums, exclusive bounds and unknown keywords', () => {
    const converted = toProviderSchema(
      params({ level: { enum: [1, 2, 3] }, ratio: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 } }),
      'gemini',
    ).schema
    expect(converted).toMatchObject({
      properties: {
        level: { type: 'INTEGER', description: '(one of: [1,2,3])' },
        ratio: { type: 'NUMBER', description: '(exclusiveMinimum: 0; multipleOf: 0.5)' },
      },
    })
    expect(checkGeminiSchema(converted)).toEqual([])
  })
})

describe('hostile schemas', () => {
  const DEPTH = STACK_SAFE_DEPTH
  const deepSchema = (): JsonValue => {
    let node: JsonValue = { type: 'string' }
    for (let i = 0; i < DEPTH; i++) node = { type: 'array', items: node }
    return { type: 'object', properties: { deep: node }, required: ['deep'] }
  }

  it('converts and checks a stack-deep schema without exhausting the stack', () => {
    const schema = deepSchema()
    for (const dialect of ['openai-strict', 'gemini'] as const) {
      const converted = toProviderSchema(schema, dialect).schema
      const problems =
        dialect === 'openai-strict' ? checkOpenAiStrictSchema(converted) : checkGeminiSchema(converted)
      expect(problems).toEqual([])
    }
  })

  it('reads back stack-deep arguments without exhausting the stack', () => {
    let value: JsonValue = 'leaf'
    for (let i = 0; i < DEPTH; i++) value = [value]
    let out = (providerArgsToCanonical({ deep: value }, deepSchema(), 'gemini') as { deep: JsonValue }).deep
    let depth = 0
    while (Array.isArray(out)) {
      out = out[0]!
      depth++
    }
    expect([depth, out]).toEqual([DEPTH, 'leaf'])
  })

  it('refuses an exponential reference blow-up with a clear error instead of exhausting memory', () => {
    const $defs: Record<string, JsonValue> = { d0: { type: 'string' } }
    for (let i = 1; i <= 40; i++) {
      $defs[`d${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } },
      }
    }
    const schema = { type: 'object', $defs, properties: { x: { $ref: '#/$defs/d40' } } }
    // one expansion to the bound (200 000 nodes) is the costly part: check its error once
    let error: unknown
    try {
      toProviderSchema(schema, 'gemini')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(SchemaDefinitionError)
    expect((error as Error).message).toMatch(/exceed 200000 nodes/)
    expect(checkOpenAiStrictSchema(toProviderSchema(schema, 'openai-strict').schema)).toEqual([])
  })

  it('terminates on a reference cycle that never reaches a value', () => {
    const schema = {
      type: 'object',
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
      properties: { x: { $ref: '#/$defs/a' } },
    }
    expect(toProviderSchema(schema, 'gemini').schema).toMatchObject({ properties: { x: { type: 'STRING' } } })
    expect(providerArgsToCanonical({ x: '"v"' }, schema, 'openai-strict')).toEqual({ x: '"v"' })
  })

  it('rejects a node that is not a schema with a path', () => {
    expect(() => toProviderSchema(params({ a: 5 as unknown as JsonValue }), 'openai-strict')).toThrow(
      /\$\.properties\.a: a schema must be an object or a boolean/,
    )
  })
})

describe('provider checkers', () => {
  it('openai-strict: reports open objects, optional properties, unsupported keywords and limits', () => {
    const problems = checkOpenAiStrictSchema({
      type: 'object',
      properties: { a: { type: 'string', minLength: 1 }, b: { allOf: [] } },
      required: ['a'],
    })
    const messages = problems.map((p) => `${p.path} ${p.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        '$ objects must set `additionalProperties: false`',
        '$.properties.b every property must be required',
        '$.properties.a.minLength `minLength` is not supported in strict mode',
        '$.properties.b.allOf `allOf` is not supported in strict mode',
      ]),
    )
    let deep: JsonValue = { type: 'object', properties: {}, required: [], additionalProperties: false }
    for (let i = 0; i < 11; i++)
      deep = { type: 'object', properties: { n: deep }, required: ['n'], additionalProperties: false }
    expect(checkOpenAiStrictSchema(deep).map((p) => p.message)).toContain(
      'object nesting is 12 levels; at most 10 are allowed',
    )
    const many = Object.fromEntries(
      Array.from({ length: 1001 }, (_, i) => [`p${i}`, { type: 'string', enum: ['x'] }]),
    )
    const wide = {
      type: 'object',
      properties: many,
      required: Object.keys(many),
      additionalProperties: false,
    }
    expect(checkOpenAiStrictSchema(wide).map((p) => p.message)).toContain(
      '1001 enum values; at most 1000 are allowed',
    )
  })

  it('gemini: reports refs, lower-case types, non-string enum values and empty objects', () => {
    const problems = checkGeminiSchema({
      type: 'OBJECT',
      properties: {
        r: { $ref: '#/x' },
        t: { type: 'string' },
        e: { type: 'INTEGER', enum: [1] },
        o: { type: 'OBJECT', properties: {} },
        'bad-name': { type: 'STRING' },
      },
    })
    const messages = problems.map((p) => `${p.path} ${p.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        '$.properties.r.$ref `$ref` is not a Gemini schema field',
        '$.properties.t.type type must be one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL',
        '$.properties.e.enum `enum` values must be strings',
        '$.properties.o `OBJECT` needs non-empty `properties`',
        '$.properties["bad-name"] parameter names must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$',
      ]),
    )
  })
})
