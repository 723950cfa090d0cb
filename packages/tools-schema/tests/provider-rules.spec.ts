import { describe, expect, it } from 'vitest'
import {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  type JsonValue,
  OPENAI_STRICT_LIMITS,
  providerArgsToCanonical,
  toProviderSchema,
} from '../src/index'

/**
 * One documented provider rule (sources: the README's "Provider rules and their sources"):
 * provider-form schemas that break it (with the checker's message), provider-form schemas that
 * keep it, and canonical schemas whose conversion must keep it.
 */
interface Rule {
  readonly rule: string
  readonly breaks: ReadonlyArray<readonly [JsonValue, string]>
  readonly keeps: readonly JsonValue[]
  readonly canonical: readonly JsonValue[]
}

const closed = (properties: Record<string, JsonValue>, extra: Record<string, JsonValue> = {}): JsonValue => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
})
const canonical = (
  properties: Record<string, JsonValue>,
  extra: Record<string, JsonValue> = {},
): JsonValue => ({
  type: 'object',
  properties,
  ...extra,
})
const gemini = (properties: Record<string, JsonValue>): JsonValue => ({ type: 'OBJECT', properties })

/** Nodes constrained only by keywords neither provider can express: they must not lose their type. */
const TYPELESS: JsonValue[] = [
  { not: { type: 'string' } },
  { required: ['a'] },
  { items: { type: 'string' } },
  { patternProperties: { '^x': { type: 'string' } } },
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
  { if: { type: 'string' }, then: { minLength: 1 } },
  { additionalProperties: false },
]

const OPENAI_RULES: Rule[] = [
  {
    rule: 'the root is an object, not `anyOf`',
    breaks: [
      [{ type: 'string' }, 'the root must be an object schema'],
      [{ anyOf: [closed({ a: { type: 'string' } })] }, 'the root must not be `anyOf`'],
      [
        closed({ a: { type: 'string' }, b: { type: 'string' } }, { anyOf: [{ type: 'object' }] }),
        'the root must not be `anyOf`',
      ],
    ],
    keeps: [closed({ a: { type: 'string' } })],
    canonical: [
      { type: 'object' },
      { type: 'object', additionalProperties: { type: 'string' }, description: 'free-form' },
      {},
      true,
      canonical(
        { a: { type: 'string' }, b: { type: 'string' } },
        { anyOf: [{ required: ['a'] }, { required: ['b'] }] },
      ),
      canonical({ a: { type: 'string' } }, { oneOf: [{ required: ['a'] }, { not: { required: ['a'] } }] }),
    ],
  },
  {
    rule: 'every property is required and every object closed',
    breaks: [
      [{ ...(closed({ a: { type: 'string' } }) as object), required: [] }, 'every property must be required'],
      [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        'objects must set `additionalProperties: false`',
      ],
    ],
    keeps: [closed({ a: { type: ['string', 'null'] } })],
    canonical: [
      canonical({
        a: { type: 'string' },
        b: {
          type: 'object',
          properties: { x: { type: 'integer' } },
          additionalProperties: { type: 'string' },
        },
      }),
    ],
  },
  {
    rule: 'only the documented keywords per type (`pattern`/`format`, number bounds, `minItems`/`maxItems`)',
    breaks: [
      [closed({ a: { type: 'string', minLength: 1 } }), '`minLength` is not supported in strict mode'],
      [
        closed({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
        '`uniqueItems` is not supported',
      ],
      [closed({ a: { type: 'string', default: 'x' } }), '`default` is not supported'],
    ],
    keeps: [
      closed({
        s: { type: 'string', pattern: '^a', format: 'email' },
        n: {
          type: 'number',
          multipleOf: 2,
          minimum: 0,
          maximum: 9,
          exclusiveMinimum: -1,
          exclusiveMaximum: 10,
        },
        l: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 },
      }),
    ],
    canonical: [
      canonical({
        s: { type: 'string', minLength: 1, maxLength: 9, default: 'x' },
        l: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'a' } },
        o: {
          type: 'object',
          properties: { x: { type: 'string' } },
          minProperties: 1,
          propertyNames: { pattern: '^x' },
        },
      }),
    ],
  },
  {
    rule: 'only the documented string formats',
    breaks: [[closed({ a: { type: 'string', format: 'uri' } }), 'format `uri` is not supported']],
    keeps: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'].map(
      (format) => closed({ a: { type: 'string', format } }),
    ),
    canonical: [canonical({ a: { type: 'string', format: 'uri' }, b: { type: 'string', format: 'regex' } })],
  },
  {
    rule: 'no composition keywords (`allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`)',
    breaks: [
      [closed({ a: { allOf: [{ type: 'string' }] } }), '`allOf` is not supported'],
      [closed({ a: { type: 'string', not: { const: 'x' } } }), '`not` is not supported'],
      [closed({ a: { type: 'string', if: { minLength: 1 } } }), '`if` is not supported'],
      [
        closed({ a: closed({ x: { type: 'string' } }, { dependentRequired: { x: [] } }) }),
        '`dependentRequired`',
      ],
      [
        closed({ a: closed({ x: { type: 'string' } }, { dependentSchemas: { x: {} } }) }),
        '`dependentSchemas`',
      ],
    ],
    keeps: [],
    canonical: [
      canonical({
        a: { allOf: [{ type: 'string' }, { not: { const: 'x' } }] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
        b: { type: 'string', if: { minLength: 1 }, then: { pattern: 'a' }, else: { const: '' } },
        c: {
          type: 'object',
          properties: { x: { type: 'string' } },
          dependentRequired: { x: [] },
          dependentSchemas: { x: {} },
        },
      }),
    ],
  },
  {
    rule: 'every node has a type (or `anyOf`/`$ref`)',
    breaks: [[closed({ a: { description: 'anything' } }), 'every schema needs a `type`']],
    keeps: [closed({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } })],
    canonical: [canonical(Object.fromEntries(TYPELESS.map((node, index) => [`p${index}`, node])))],
  },
  {
    rule: '`$ref` stands alone, resolves, and may recurse',
    breaks: [
      [
        closed({ a: { $ref: '#/$defs/x', description: 'd' } }, { $defs: { x: { type: 'string' } } }),
        '`$ref` cannot have sibling keywords',
      ],
      [closed({ a: { $ref: '#/$defs/missing' } }), 'does not resolve'],
    ],
    keeps: [closed({ a: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } })],
    canonical: [
      canonical(
        { a: { $ref: '#/definitions/x', description: 'd', minLength: 1 }, self: { $ref: '#' } },
        { definitions: { x: { type: 'string' } } },
      ),
    ],
  },
]

const many = (count: number, value: (index: number) => JsonValue) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, value(index)]))

describe('OpenAI strict mode: each documented rule', () => {
  for (const { rule, breaks, keeps, canonical: inputs } of OPENAI_RULES) {
    it(rule, () => {
      for (const [schema, message] of breaks) {
        expect(
          checkOpenAiStrictSchema(schema)
            .map((p) => p.message)
            .join('\n'),
        ).toContain(message)
      }
      for (const schema of keeps) expect(checkOpenAiStrictSchema(schema)).toEqual([])
      for (const input of inputs) {
        expect(checkOpenAiStrictSchema(toProviderSchema(input, 'openai-strict').schema)).toEqual([])
      }
    })
  }

  it('size limits: properties, nesting, enum values, large enums and total string length', () => {
    const messages = (schema: JsonValue) => checkOpenAiStrictSchema(schema).map((p) => p.message)
    const limit = OPENAI_STRICT_LIMITS
    expect(messages(closed(many(limit.maxProperties, () => ({ type: 'string' }))))).toEqual([])
    expect(messages(closed(many(limit.maxProperties + 1, () => ({ type: 'string' }))))).toContain(
      `${limit.maxProperties + 1} object properties; at most ${limit.maxProperties} are allowed`,
    )
    let deep: JsonValue = closed({ leaf: { type: 'string' } })
    for (let level = 1; level < limit.maxNestingDepth; level++) deep = closed({ n: deep })
    expect(messages(deep)).toEqual([])
    expect(messages(closed({ n: deep }))).toContain('object nesting is 11 levels; at most 10 are allowed')
    const longEnum = (length: number) =>
      Array.from({ length: 251 }, (_, index) => `${index}`.padStart(length, 'x')) as JsonValue[]
    // 251 values of 59 characters stay under 15,000; of 60 characters they do not
    expect(messages(closed({ e: { type: 'string', enum: longEnum(59) } }))).toEqual([])
    expect(messages(closed({ e: { type: 'string', enum: longEnum(60) } })).join()).toContain(
      'an enum of more than 250 strings may total at most 15,000 characters',
    )
    const name = (index: number) => `${index}`.padEnd(24_001, 'n')
    const longNames = Object.fromEntries(
      Array.from({ length: 5 }, (_, index) => [name(index), { type: 'string' }]),
    )
    expect(messages(closed(longNames)).join()).toContain('at most 120,000 are allowed')
  })
})

const GEMINI_RULES: Rule[] = [
  {
    rule: 'the parameters are an `OBJECT` with documented parameter names',
    breaks: [
      [{ type: 'STRING' }, 'the parameters must be an `OBJECT` schema'],
      [gemini({ '9lives': { type: 'STRING' } }), 'parameter names must match'],
      [gemini({ ['a'.repeat(65)]: { type: 'STRING' } }), 'parameter names must match'],
    ],
    keeps: [gemini({ _a9: { type: 'STRING' } }), { type: 'OBJECT', properties: {} }, { type: 'OBJECT' }],
    canonical: [
      canonical({ a: { type: 'string' } }),
      { type: 'object' },
      { type: 'object', properties: {}, additionalProperties: false },
      { type: 'object', additionalProperties: { type: 'string' } },
      true,
    ],
  },
  {
    rule: 'only the `Schema` fields (no `$ref`, `$defs`, `oneOf`, `allOf`, `const`, `additionalProperties`)',
    breaks: ['$ref', '$defs', 'oneOf', 'allOf', 'const', 'additionalProperties', 'exclusiveMinimum'].map(
      (key) => [
        gemini({ a: { type: 'STRING', [key]: key === 'const' ? 'x' : {} } }),
        `\`${key}\` is not a Gemini schema field`,
      ],
    ),
    keeps: [
      gemini({
        a: {
          type: 'STRING',
          title: 't',
          description: 'd',
          nullable: true,
          default: 'x',
          example: 'y',
          minLength: 1,
          maxLength: 2,
          pattern: 'x',
        },
        b: { type: 'ARRAY', items: { type: 'NUMBER', minimum: 0, maximum: 1 }, minItems: 1, maxItems: 2 },
        c: {
          type: 'OBJECT',
          properties: { x: { type: 'BOOLEAN' } },
          required: ['x'],
          propertyOrdering: ['x'],
        },
        d: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
      }),
    ],
    canonical: [
      canonical(
        {
          r: { $ref: '#/$defs/x' },
          o: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          a: { allOf: [{ type: 'string' }, { minLength: 2 }, { not: { const: 'x' } }] },
          c: { const: 'x' },
          n: { const: 3 },
          m: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false },
          e: { type: 'number', exclusiveMinimum: 0 },
        },
        { $defs: { x: { type: 'string' } } },
      ),
    ],
  },
  {
    rule: 'one documented `type` per node (or `anyOf`)',
    breaks: [
      [gemini({ a: { type: 'string' } }), 'type must be one of'],
      [gemini({ a: { type: 'TYPE_UNSPECIFIED' } }), 'type must be one of'],
      [gemini({ a: { type: ['STRING', 'NULL'] } }), 'type must be one of'],
      [gemini({ a: { description: 'anything' } }), 'every schema needs a `type` (or `anyOf`)'],
    ],
    keeps: [gemini({ a: { type: 'NULL' }, b: { type: 'STRING', nullable: true } })],
    canonical: [
      canonical({
        list: { type: ['string', 'integer', 'null'] },
        ...Object.fromEntries(TYPELESS.map((node, index) => [`p${index}`, node])),
      }),
    ],
  },
  {
    rule: '`enum` is a list of strings, on `STRING` or `INTEGER`',
    breaks: [
      [gemini({ a: { type: 'STRING', enum: [1] } }), '`enum` values must be strings'],
      [
        gemini({ a: { type: 'BOOLEAN', enum: ['true'] } }),
        '`enum` is only documented on `STRING` and `INTEGER`',
      ],
    ],
    keeps: [
      gemini({
        a: { type: 'STRING', format: 'enum', enum: ['EAST', 'WEST'] },
        b: { type: 'INTEGER', format: 'enum', enum: ['101', '201'] },
      }),
    ],
    canonical: [
      canonical({
        i: { type: 'integer', enum: [1, 2] },
        b: { enum: [true, false] },
        m: { enum: ['a', 1, null] },
        s: { type: 'string', enum: ['a', 'b'] },
      }),
    ],
  },
  {
    rule: 'only the documented formats per type',
    breaks: [
      [gemini({ a: { type: 'STRING', format: 'uri' } }), 'format `uri` is not documented for STRING'],
      [gemini({ a: { type: 'NUMBER', format: 'int32' } }), 'format `int32` is not documented for NUMBER'],
      [gemini({ a: { type: 'BOOLEAN', format: 'enum' } }), 'is not documented for BOOLEAN'],
    ],
    keeps: [
      gemini({
        ...Object.fromEntries(
          ['enum', 'date-time', 'date', 'email', 'byte', 'password'].map((format) => [
            `s_${format.replace('-', '_')}`,
            { type: 'STRING', format },
          ]),
        ),
        f: { type: 'NUMBER', format: 'float' },
        d: { type: 'NUMBER', format: 'double' },
        i: { type: 'INTEGER', format: 'int32' },
        l: { type: 'INTEGER', format: 'int64' },
      }),
    ],
    canonical: [
      canonical({
        u: { type: 'string', format: 'uri' },
        e: { type: 'string', format: 'email' },
        t: { type: 'string', format: 'date-time' },
        n: { type: 'number', format: 'int32' },
      }),
    ],
  },
  {
    rule: '`properties` and `required` only on `OBJECT`',
    breaks: [
      [
        gemini({ a: { type: 'STRING', properties: { x: { type: 'STRING' } } } }),
        '`properties` is only allowed on `OBJECT`',
      ],
      [
        gemini({ a: { type: 'ARRAY', items: { type: 'STRING' }, required: ['x'] } }),
        '`required` is only allowed on `OBJECT`',
      ],
      [
        gemini({ a: { anyOf: [{ type: 'STRING' }], properties: { x: { type: 'STRING' } } } }),
        'only allowed on `OBJECT`',
      ],
    ],
    keeps: [gemini({ a: { type: 'OBJECT', properties: { x: { type: 'STRING' } }, required: ['x'] } })],
    canonical: [
      canonical(
        Object.fromEntries(
          ['string', 'number', 'integer', 'boolean', 'array', 'null'].map((type) => [
            `p_${type}`,
            { type, items: { type: 'string' }, properties: { x: { type: 'string' } }, required: ['x'] },
          ]),
        ),
      ),
      canonical({
        u: { type: ['object', 'string'], properties: { x: { type: 'string' } }, required: ['x'] },
      }),
    ],
  },
  {
    rule: 'a nested `OBJECT` declares properties, an `ARRAY` its items, `required` only declared names',
    breaks: [
      [gemini({ a: { type: 'OBJECT', properties: {} } }), '`OBJECT` needs non-empty `properties`'],
      [gemini({ a: { type: 'ARRAY' } }), '`ARRAY` needs an `items` schema'],
      [
        { type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['b'] },
        '`b` is not a declared property',
      ],
      [gemini({ a: { type: 'STRING', nullable: 'yes' } }), 'must be a boolean'],
    ],
    keeps: [],
    canonical: [
      canonical(
        {
          a: { type: 'array' },
          t: { type: 'array', items: [{ type: 'string' }] },
          d: { type: 'object' },
          e: { type: 'object', properties: {} },
          c: { type: 'object', properties: {}, additionalProperties: false },
        },
        {
          required: ['a', 'missing'],
        },
      ),
    ],
  },
]

describe('Gemini function declarations: each documented rule', () => {
  for (const { rule, breaks, keeps, canonical: inputs } of GEMINI_RULES) {
    it(rule, () => {
      for (const [schema, message] of breaks) {
        expect(
          checkGeminiSchema(schema)
            .map((p) => p.message)
            .join('\n'),
        ).toContain(message)
      }
      for (const schema of keeps) expect(checkGeminiSchema(schema)).toEqual([])
      for (const input of inputs)
        expect(checkGeminiSchema(toProviderSchema(input, 'gemini').schema)).toEqual([])
    })
  }
})

describe('values under folded rules still read back', () => {
  it('a constraint-only union beside a shape is folded, and its arguments are not reshaped', () => {
    const schema = canonical(
      { a: { type: 'string' }, b: { type: 'string', anyOf: [{ minLength: 3 }, { pattern: '^x' }] } },
      { anyOf: [{ required: ['a'] }, { required: ['b'] }] },
    )
    for (const dialect of ['openai-strict', 'gemini'] as const) {
      const { schema: converted, changes } = toProviderSchema(schema, dialect)
      expect(JSON.stringify(converted)).not.toContain('"anyOf"')
      expect(
        changes.filter((c) => c.change.startsWith('union of constraint-only branches')).map((c) => c.path),
      ).toEqual(['$.anyOf', '$.properties.b.anyOf'])
    }
    // "123" stays a string: the folded branches are not JSON-decoded
    expect(providerArgsToCanonical({ a: null, b: '123' }, schema, 'openai-strict')).toEqual({ b: '123' })
    expect(providerArgsToCanonical({ b: '123' }, schema, 'gemini')).toEqual({ b: '123' })
  })

  it('free-form parameters stay an object at the root, and their arguments are read back unchanged', () => {
    for (const schema of [{ type: 'object' }, { type: 'object', properties: {} }, true] as JsonValue[]) {
      const strict = toProviderSchema(schema, 'openai-strict')
      expect(strict.schema).toEqual({
        type: 'object',
        properties: {},
        required: [],
        additionalProperties: false,
      })
      expect(toProviderSchema(schema, 'gemini').schema).toEqual({ type: 'OBJECT' })
      for (const dialect of ['openai-strict', 'gemini'] as const) {
        expect(providerArgsToCanonical({ a: 1 }, schema, dialect)).toEqual({ a: 1 })
      }
    }
  })

  it('a Gemini object without properties below the root travels as a JSON string and decodes back', () => {
    const schema = canonical({ e: { type: 'object', properties: {} }, n: { type: 'integer' } })
    const converted = toProviderSchema(schema, 'gemini').schema as { properties: Record<string, unknown> }
    expect(converted.properties.e).toMatchObject({ type: 'STRING' })
    expect(providerArgsToCanonical({ e: '{}', n: 1 }, schema, 'gemini')).toEqual({ e: {}, n: 1 })
    // strict mode can say "an empty object": it stays one
    const strict = toProviderSchema(schema, 'openai-strict').schema as { properties: Record<string, unknown> }
    expect(strict.properties.e).toMatchObject({ type: ['object', 'null'], properties: {} })
    expect(providerArgsToCanonical({ e: {}, n: null }, schema, 'openai-strict')).toEqual({ e: {} })
  })

  it('a node constrained only by inexpressible keywords travels as a JSON string and decodes back', () => {
    const schema = canonical(Object.fromEntries(TYPELESS.map((node, index) => [`p${index}`, node])))
    const args = { p0: 5, p1: { a: 1 }, p2: ['x'], p3: { xa: 'b' }, p4: 'text', p5: {} }
    const sent = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, JSON.stringify(value)]))
    for (const dialect of ['openai-strict', 'gemini'] as const) {
      const converted = toProviderSchema(schema, dialect).schema as {
        properties: Record<string, { type: unknown }>
      }
      for (const member of Object.values(converted.properties))
        expect(member.type).toContain(dialect === 'gemini' ? 'STRING' : 'string')
      expect(providerArgsToCanonical(sent, schema, dialect)).toEqual(args)
    }
  })
})
