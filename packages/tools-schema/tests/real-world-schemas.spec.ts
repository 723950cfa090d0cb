// Schemas in the shapes their producers emit (pydantic v2 `model_json_schema()`, zod v4
// `z.toJSONSchema`, zod-to-json-schema, OpenAI strict mode, Gemini and OpenAPI 3.0 through
// `normalizeSchema`, MCP servers' `inputSchema`s): each must accept what the producer means by
// it and refuse the rest with a message that points at the mistake.
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema, normalizeSchema } from '../src/index'

const check = (schema: unknown) => compileJsonSchemaValidator(schema as JsonSchema)

describe('pydantic v2 model_json_schema()', () => {
  const pet = check({
    $defs: {
      Cat: {
        properties: {
          pet_type: { const: 'cat', title: 'Pet Type', type: 'string' },
          meows: { title: 'Meows', type: 'integer' },
        },
        required: ['pet_type', 'meows'],
        title: 'Cat',
        type: 'object',
      },
      Dog: {
        properties: {
          pet_type: { const: 'dog', title: 'Pet Type', type: 'string' },
          barks: { title: 'Barks', type: 'number' },
        },
        required: ['pet_type', 'barks'],
        title: 'Dog',
        type: 'object',
      },
      Color: { enum: ['red', 'green'], title: 'Color', type: 'string' },
    },
    properties: {
      pet: {
        discriminator: { mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' }, propertyName: 'pet_type' },
        oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }],
        title: 'Pet',
      },
      note: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }], default: null, title: 'Note' },
      color: { $ref: '#/$defs/Color', default: 'red' },
      pair: {
        maxItems: 2,
        minItems: 2,
        prefixItems: [{ type: 'integer' }, { type: 'string' }],
        type: 'array',
      },
      extra: { additionalProperties: { type: 'integer' }, type: 'object', title: 'Extra' },
    },
    required: ['pet'],
    title: 'Model',
    type: 'object',
  })
  const dog = { pet_type: 'dog', barks: 1.5 }

  it('accepts what the model means', () => {
    for (const value of [
      { pet: { pet_type: 'cat', meows: 3 } },
      { pet: dog, note: null, color: 'green', pair: [1, 'a'], extra: { a: 1 } },
      { pet: dog, note: 'short' },
    ])
      expect(pet(value)).toEqual([])
  })

  it('explains a discriminated union by the branch its tag names', () => {
    expect(pet({ pet: { pet_type: 'cat', barks: 1 } })).toEqual([
      { path: '$.pet', message: 'missing required property "meows"' },
    ])
    expect(pet({ pet: { pet_type: 'bird' } })).toEqual([
      { path: '$.pet.pet_type', message: 'expected one of "cat", "dog" (the tag of 2 union branches)' },
    ])
    expect(pet({ pet: { meows: 1 } })).toEqual([
      { path: '$.pet', message: 'missing required property "pet_type"' },
    ])
  })

  it('refuses null-or-x, enum, tuple and map mistakes at their paths', () => {
    expect(pet({ pet: dog, note: 3 })[0]!.path).toBe('$.note')
    expect(pet({ pet: dog, color: 'blue' })).toEqual([
      { path: '$.color', message: 'expected one of "red", "green"' },
    ])
    expect(pet({ pet: dog, pair: [1, 2] })).toEqual([
      { path: '$.pair[1]', message: 'expected string, got number' },
    ])
    expect(pet({ pet: dog, extra: { a: 'x' } })).toEqual([
      { path: '$.extra.a', message: 'expected integer, got string' },
    ])
  })
})

describe('zod v4 z.toJSONSchema', () => {
  const schema = check({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      email: {
        type: 'string',
        format: 'email',
        pattern:
          "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
      },
      count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      price: { type: 'number', multipleOf: 0.01 },
      tags: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
      shape: {
        anyOf: [
          {
            type: 'object',
            properties: { kind: { type: 'string', const: 'circle' }, r: { type: 'number' } },
            required: ['kind', 'r'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { type: 'string', const: 'square' }, side: { type: 'number' } },
            required: ['kind', 'side'],
            additionalProperties: false,
          },
        ],
      },
      tree: { $ref: '#/$defs/__schema0' },
    },
    required: ['email'],
    additionalProperties: false,
    $defs: {
      __schema0: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/$defs/__schema0' } } },
        required: ['children'],
        additionalProperties: false,
      },
    },
  })

  it('accepts decimal prices as zod does (19.99 is a multiple of 0.01)', () => {
    expect(
      schema({
        email: 'a.b@example.com',
        count: 3,
        price: 19.99,
        tags: { x: 1 },
        shape: { kind: 'square', side: 2 },
        tree: { children: [{ children: [] }] },
      }),
    ).toEqual([])
    expect(schema({ email: 'a@b.co', price: 0.07 })).toEqual([])
    expect(schema({ email: 'a@b.co', price: 0.075 })).toEqual([
      { path: '$.price', message: 'expected a multiple of 0.01, got 0.075' },
    ])
  })

  it('refuses strict-object extras, tag and recursion mistakes with pointed messages', () => {
    expect(schema({ email: 'a@b.co', extra: 1 })).toEqual([
      { path: '$.extra', message: 'unexpected property "extra"' },
    ])
    expect(schema({ email: 'a@b.co', shape: { kind: 'circle', side: 1 } })).toEqual([
      { path: '$.shape', message: 'missing required property "r"' },
      { path: '$.shape.side', message: 'unexpected property "side"' },
    ])
    expect(schema({ email: 'a@b.co', shape: { kind: 'hexagon' } })).toEqual([
      { path: '$.shape.kind', message: 'expected one of "circle", "square" (the tag of 2 union branches)' },
    ])
    expect(schema({ email: 'a@b.co', tree: { children: [{}] } })).toEqual([
      { path: '$.tree.children[0]', message: 'missing required property "children"' },
    ])
    expect(schema({ email: 'a..b@example.com' })[0]!.path).toBe('$.email')
  })
})

describe('zod-to-json-schema (draft-07) and MCP TypeScript-SDK inputSchemas', () => {
  const schema = check({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to edit' },
      encoding: { type: ['string', 'null'], enum: ['utf8', 'base64', null] },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
          required: ['oldText', 'newText'],
          additionalProperties: false,
        },
      },
      // zod-to-json-schema's default `$refStrategy: 'root'` points back into the document.
      again: { $ref: '#/properties/edits/items' },
      node: { $ref: '#/definitions/node' },
    },
    required: ['path'],
    additionalProperties: false,
    definitions: {
      node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          next: { anyOf: [{ $ref: '#/definitions/node' }, { type: 'null' }] },
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
  })

  it('accepts the arguments the tool means', () => {
    expect(
      schema({
        path: '/a',
        encoding: null,
        edits: [{ oldText: 'a', newText: 'b' }],
        again: { oldText: '', newText: '' },
        node: { name: 'a', next: { name: 'b', next: null } },
      }),
    ).toEqual([])
  })

  it('refuses the rest at the right path', () => {
    expect(schema({ path: '/a', again: { oldText: 'a' } })).toEqual([
      { path: '$.again', message: 'missing required property "newText"' },
    ])
    expect(schema({ path: '/a', encoding: 'latin1' })).toEqual([
      { path: '$.encoding', message: 'expected one of "utf8", "base64", null' },
    ])
  })
})

describe('OpenAI strict mode', () => {
  const schema = check({
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: ['integer', 'null'] },
      filter: { anyOf: [{ $ref: '#/$defs/filter' }, { type: 'null' }] },
    },
    required: ['query', 'limit', 'filter'],
    additionalProperties: false,
    $defs: {
      filter: {
        type: 'object',
        properties: { field: { type: 'string' }, and: { type: 'array', items: { $ref: '#/$defs/filter' } } },
        required: ['field', 'and'],
        additionalProperties: false,
      },
    },
  })

  it('takes null for an optional property and demands every key', () => {
    expect(schema({ query: 'q', limit: null, filter: null })).toEqual([])
    expect(schema({ query: 'q', limit: 2, filter: { field: 'a', and: [{ field: 'b', and: [] }] } })).toEqual(
      [],
    )
    expect(schema({ query: 'q', filter: null })).toEqual([
      { path: '$', message: 'missing required property "limit"' },
    ])
    expect(schema({ query: 'q', limit: 1.5, filter: null })[0]).toEqual({
      path: '$.limit',
      message: 'expected integer or null, got number 1.5',
    })
  })
})

describe('Gemini and OpenAPI 3.0 through normalizeSchema', () => {
  it('Gemini: upper-case types, nullable, format enum, integer formats', () => {
    const schema = check(
      normalizeSchema(
        {
          type: 'OBJECT',
          properties: {
            unit: { type: 'STRING', format: 'enum', enum: ['c', 'f'], nullable: true },
            days: { type: 'INTEGER', format: 'int32', nullable: true },
            where: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true },
          },
          required: ['unit'],
        } as unknown as JsonSchema,
        { from: 'gemini' },
      ),
    )
    expect(schema({ unit: null, days: null, where: null })).toEqual([])
    expect(schema({ unit: 'c', days: 3, where: 'x' })).toEqual([])
    expect(schema({ unit: 'k' })).toEqual([{ path: '$.unit', message: 'expected one of "c", "f", null' }])
    expect(schema({ unit: 'c', days: 1.5 })).toEqual([
      { path: '$.days', message: 'expected integer or null, got number 1.5' },
    ])
    expect(schema({ unit: 'c', where: true })).toHaveLength(1)
  })

  it('OpenAPI 3.0: a nullable $ref / allOf accepts null, and components.schemas are converted', () => {
    const schema = check(
      normalizeSchema(
        {
          type: 'object',
          properties: {
            owner: { allOf: [{ $ref: '#/components/schemas/User' }], nullable: true, description: 'or null' },
            reviewer: { $ref: '#/components/schemas/User' },
            score: { type: 'number', minimum: 0, exclusiveMinimum: true },
          },
          components: {
            schemas: {
              User: {
                type: 'object',
                properties: {
                  name: { type: 'string', nullable: true },
                  age: { type: 'integer', example: 3 },
                },
                required: ['name'],
              },
            },
          },
        } as unknown as JsonSchema,
        { from: 'openapi-3.0' },
      ),
    )
    expect(schema({ owner: null, reviewer: { name: null }, score: 0.5 })).toEqual([])
    expect(schema({ owner: { name: 'a' } })).toEqual([])
    expect(schema({ owner: 1 })).toHaveLength(1)
    expect(schema({ reviewer: { name: 1 } })).toEqual([
      { path: '$.reviewer.name', message: 'expected string or null, got number' },
    ])
    expect(schema({ score: 0 })).toEqual([{ path: '$.score', message: 'expected number > 0, got 0' }])
  })

  it('keeps the annotations of a wrapped nullable node outside the union', () => {
    expect(
      normalizeSchema(
        {
          oneOf: [{ type: 'string' }, { type: 'integer' }],
          nullable: true,
          description: 'd',
          example: 'x',
        } as unknown as JsonSchema,
        { from: 'openapi-3.0' },
      ),
    ).toEqual({
      description: 'd',
      examples: ['x'],
      anyOf: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }],
    })
  })
})

describe('MCP Python SDK (FastMCP) inputSchemas', () => {
  it('accepts the titled pydantic argument model and refuses wrong types', () => {
    const schema = check({
      properties: {
        a: { title: 'A', type: 'integer' },
        b: { default: 1.5, title: 'B', type: 'number' },
        tags: {
          anyOf: [{ items: { type: 'string' }, type: 'array' }, { type: 'null' }],
          default: null,
          title: 'Tags',
        },
      },
      required: ['a'],
      title: 'addArguments',
      type: 'object',
    })
    expect(schema({ a: 1, tags: ['x'] })).toEqual([])
    expect(schema({ a: 1, b: '2' })).toEqual([{ path: '$.b', message: 'expected number, got string' }])
    expect(schema({ a: 1, tags: [1] })[0]!.path).toBe('$.tags')
  })
})
