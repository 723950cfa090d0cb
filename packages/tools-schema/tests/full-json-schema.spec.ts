import { afterAll, describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  type JsonSchema,
  lintSchema,
  normalizeSchema,
  validateJsonSchemaValue,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { STACK_SAFE_DEPTH } from './fixtures/stack-depth'

const valid = (schema: JsonSchema, value: unknown, formats: 'annotate' | 'assert' = 'annotate') =>
  compileJsonSchemaValidator(schema, { formats })(value).length === 0

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('keywords (%s)', (_mode, fast) => {
  setFastChecksEnabled(fast)
  afterAll(() => setFastChecksEnabled(true))

  it.each<[string, JsonSchema, unknown[], unknown[]]>([
    ['boolean schemas', { properties: { a: true, b: false } }, [{ a: 1 }], [{ b: 1 }]],
    ['type arrays', { type: ['string', 'null'] }, ['x', null], [1, {}]],
    ['integer accepts 1.0 and number accepts integers', { type: 'integer' }, [1, 1.0, -3], [1.5, '1']],
    [
      'deep-equal enum',
      { enum: [{ a: [1, 2] }, [null]] },
      [{ a: [1, 2] }, [null]],
      [{ a: [2, 1] }, [null, null]],
    ],
    ['deep-equal const with key order ignored', { const: { a: 1, b: 2 } }, [{ b: 2, a: 1 }], [{ a: 1 }]],
    ['anyOf', { anyOf: [{ type: 'string' }, { minimum: 3 }] }, ['x', 5], [1]],
    ['allOf', { allOf: [{ minimum: 1 }, { maximum: 3 }] }, [2], [0, 4]],
    ['oneOf', { oneOf: [{ minimum: 1 }, { maximum: 3 }] }, [0, 4], [2]],
    ['not', { not: { type: 'string' } }, [1], ['x']],
    [
      'if/then/else',
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
      { if: { minimum: 10 }, then: { multipleOf: 2 }, else: { multipleOf: 3 } },
      [12, 9],
      [11, 4],
    ],
    ['numeric bounds', { minimum: 1, exclusiveMaximum: 3 }, [1, 2.9], [0.9, 3]],
    ['exclusiveMinimum / maximum', { exclusiveMinimum: 1, maximum: 3 }, [1.1, 3], [1, 3.1]],
    ['multipleOf', { multipleOf: 0.5 }, [1.5, 0], [1.2]],
    ['string lengths count code points', { minLength: 2, maxLength: 2 }, ['😀😀', 'ab'], ['😀', 'abc']],
    ['pattern is unanchored and unicode', { pattern: '\\p{L}' }, ['1ä'], ['12']],
    ['format is an annotation by default', { format: 'email' }, ['not an email'], []],
    [
      'draft-07 tuples',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        items: [{ type: 'string' }],
        additionalItems: false,
      },
      [['a'], []],
      [['a', 1], [1]],
    ],
    [
      'prefixItems + items',
      { prefixItems: [{ type: 'string' }], items: { type: 'number' } },
      [['a', 1, 2]],
      [['a', 'b'], [1]],
    ],
    [
      'item bounds and uniqueItems',
      { minItems: 1, maxItems: 2, uniqueItems: true },
      [[1], [{ a: 1 }, { a: 2 }]],
      [[], [1, 2, 3], [{ a: 1 }, { a: 1 }]],
    ],
    [
      'contains / minContains / maxContains',
      { contains: { type: 'string' }, minContains: 1, maxContains: 2 },
      [
        ['a', 1],
        ['a', 'b'],
      ],
      [[1], ['a', 'b', 'c']],
    ],
    [
      'additionalProperties as a schema',
      { properties: { a: {} }, additionalProperties: { type: 'number' } },
      [{ a: 'x', b: 1 }],
      [{ b: 'x' }],
    ],
    [
      'patternProperties',
      { patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
      [{ 'x-a': 'v' }],
      [{ 'x-a': 1 }, { y: 1 }],
    ],
    ['propertyNames', { propertyNames: { maxLength: 2 } }, [{ ab: 1 }], [{ abc: 1 }]],
    ['property counts', { minProperties: 1, maxProperties: 1 }, [{ a: 1 }], [{}, { a: 1, b: 2 }]],
    ['dependentRequired', { dependentRequired: { a: ['b'] } }, [{ a: 1, b: 2 }, { b: 1 }], [{ a: 1 }]],
    ['dependentSchemas', { dependentSchemas: { a: { required: ['b'] } } }, [{ a: 1, b: 2 }, {}], [{ a: 1 }]],
    [
      'draft-07 dependencies',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        dependencies: { a: ['b'], c: { required: ['d'] } },
      },
      [
        { a: 1, b: 1 },
        { c: 1, d: 1 },
      ],
      [{ a: 1 }, { c: 1 }],
    ],
    [
      'draft-07 ignores keywords beside $ref',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { s: { type: 'string' } },
        properties: { a: { $ref: '#/definitions/s', minLength: 5 } },
      },
      [{ a: 'x' }],
      [{ a: 1 }],
    ],
    [
      '2020-12 applies keywords beside $ref',
      { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s', minLength: 5 } } },
      [{ a: 'xxxxx' }],
      [{ a: 'x' }],
    ],
    [
      'unknown keywords are ignored',
      { type: 'string', 'x-extra': { type: 'number' }, 'x-nullable': true },
      ['x'],
      [null],
    ],
  ])('%s', (_name, schema, accepted, rejected) => {
    for (const value of accepted) expect(valid(schema, value), JSON.stringify(value)).toBe(true)
    for (const value of rejected) expect(valid(schema, value), JSON.stringify(value)).toBe(false)
  })

  it('format assertion checks the listed formats', () => {
    const cases: [string, string, string][] = [
      ['date-time', '2020-02-29T10:00:00.5+01:00', '2021-02-29T10:00:00Z'],
      ['date', '2020-02-29', '2020-13-01'],
      ['time', '23:59:60Z', '10:00:00'],
      ['duration', 'P1Y2M3DT4H', 'PT'],
      ['email', 'a.b@c-d.ef', 'a..b@c.de'],
      ['hostname', 'example.com', '-a.com'],
      ['ipv4', '192.168.0.1', '256.1.1.1'],
      ['ipv6', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8:9'],
      ['uri', 'https://a.b/c?d#e', '/relative'],
      ['uri-reference', '/relative?x#y', 'a b'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000'],
      ['regex', '[a-z]+', '('],
    ]
    for (const [format, good, bad] of cases) {
      expect(valid({ format }, good, 'assert'), `${format} ${good}`).toBe(true)
      expect(valid({ format }, bad, 'assert'), `${format} ${bad}`).toBe(false)
      expect(valid({ format }, bad), `${format} annotation`).toBe(true)
    }
  })

  it('violations stay path-qualified with clear messages', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'null' },
              { type: 'object', properties: { name: { type: 'string', minLength: 2 } } },
            ],
          },
        },
      },
    }
    const violations = compileJsonSchemaValidator(schema)({
      items: [null, { name: 'ok' }, null, { name: 'x' }],
    })
    expect(violations).toHaveLength(1)
    expect(violations[0]!.path).toBe('$.items[3]')
    expect(violations[0]!.message).toMatch(/anyOf.*\$\.items\[3\]\.name expected at least 2 characters/)
  })
})

describe('$ref', () => {
  const tree: JsonSchema = {
    $defs: {
      node: {
        type: 'object',
        properties: {
          value: { type: 'integer' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
        required: ['value'],
      },
    },
    $ref: '#/$defs/node',
  }

  it('recursive schemas validate recursive values and report deep paths', () => {
    const check = compileJsonSchemaValidator(tree)
    expect(check({ value: 1, children: [{ value: 2, children: [] }] })).toEqual([])
    expect(check({ value: 1, children: [{ value: 2, children: [{ value: 'x' }] }] })).toEqual([
      { path: '$.children[0].children[0].value', message: 'expected integer, got string' },
    ])
  })

  // STACK_SAFE_DEPTH outnests any recursion per level (100 000 under DSH_LONG=1).
  it(`a ${STACK_SAFE_DEPTH}-deep value under a recursive schema is checked without stack overflow`, () => {
    let value: unknown = { value: 0 }
    for (let i = 0; i < STACK_SAFE_DEPTH; i++) value = { value: i, children: [value] }
    expect(compileJsonSchemaValidator(tree)(value)).toEqual([])
  })

  it('cyclic data under a recursive schema is rejected as non-JSON, not followed forever', () => {
    const value: Record<string, unknown> = { value: 1 }
    value.children = [value]
    const violations = compileJsonSchemaValidator(tree)(value)
    expect(violations).toHaveLength(1)
    expect(violations[0]!.message).toMatch(/cycle/)
  })

  it('anchors, escaped pointers and #/components/schemas resolve', () => {
    const schema: JsonSchema = {
      components: { schemas: { 'a/b': { type: 'string' } } },
      $defs: { n: { $anchor: 'num', type: 'number' } },
      properties: { s: { $ref: '#/components/schemas/a~1b' }, n: { $ref: '#num' } },
    }
    expect(validateJsonSchemaValue(schema, { s: 'x', n: 1 })).toEqual([])
    expect(validateJsonSchemaValue(schema, { s: 1, n: 'x' })).toHaveLength(2)
  })
})

describe('hostile values', () => {
  it('a long hostile value under a normal pattern is matched in linear time', () => {
    const check = compileJsonSchemaValidator({ type: 'string', pattern: '^[a-z]+(?:-[a-z]+)*$' })
    expect(check(`${'a-'.repeat(200_000)}!`)).toHaveLength(1)
    expect(check('a-'.repeat(200_000).slice(0, -1))).toEqual([])
  })

  it('lintSchema flags a catastrophic pattern', () => {
    expect(lintSchema({ pattern: '^(a+)+$' })).toEqual([
      {
        path: '$.pattern',
        message: 'pattern has a nested quantifier and may backtrack catastrophically on long input',
      },
    ])
  })
})

describe('lintSchema', () => {
  it('reports unknown keywords, dialect-ignored keywords, draft-07 $ref siblings and unasserted formats', () => {
    expect(
      lintSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: {
          a: { 'x-ui': 1, prefixItems: [] },
          b: { $ref: '#/properties/a', minimum: 1 },
          c: { format: 'color' },
        },
      }),
    ).toEqual(
      expect.arrayContaining([
        { path: '$.properties.a["x-ui"]', message: 'unknown keyword "x-ui" is ignored' },
        {
          path: '$.properties.a.prefixItems',
          message: '"prefixItems" is not a draft-07 keyword and is ignored (set $schema to use it)',
        },
        { path: '$.properties.b.minimum', message: '"minimum" beside $ref is ignored in draft-07' },
        { path: '$.properties.c.format', message: 'format "color" is an annotation only (never asserted)' },
      ]),
    )
  })

  it('reports nothing for a clean 2020-12 schema', () => {
    expect(lintSchema({ type: 'object', properties: { a: { type: 'string', format: 'email' } } })).toEqual([])
  })
})

describe('normalizeSchema', () => {
  it('converts OpenAPI 3.0 nullable, boolean exclusive bounds and example', () => {
    const input: JsonSchema = {
      type: 'object',
      properties: {
        n: { type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true as never, example: 3 },
        e: { type: 'string', enum: ['a'], nullable: true },
      },
    }
    const out = normalizeSchema(input, { from: 'openapi-3.0' })
    expect(out).toEqual({
      type: 'object',
      properties: {
        n: { type: ['integer', 'null'], exclusiveMinimum: 0, examples: [3] },
        e: { type: ['string', 'null'], enum: ['a', null] },
      },
    })
    expect((input.properties!.n as Record<string, unknown>).nullable).toBe(true)
    expect(validateJsonSchemaValue(out, { n: null, e: null })).toEqual([])
    expect(validateJsonSchemaValue(out, { n: 0 })).toHaveLength(1)
  })

  it('lower-cases Gemini type names, drops format "enum" and keeps x- extensions', () => {
    const out = normalizeSchema(
      {
        type: 'OBJECT',
        properties: { k: { type: 'STRING', format: 'enum', enum: ['a'], 'x-k': 1 } },
      } as never,
      { from: 'gemini' },
    )
    expect(out).toEqual({ type: 'object', properties: { k: { type: 'string', enum: ['a'], 'x-k': 1 } } })
  })
})
