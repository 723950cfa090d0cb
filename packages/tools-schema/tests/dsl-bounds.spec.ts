// The DSL's bounds (SPEC §9): which spec types take which bound, the checks on their values,
// the JSON Schema they compile to, their enforcement, and their place in the generated SDK text.
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  createPyRenderContext,
  type InferArgs,
  type InferValue,
  jsonSchemaToPy,
  jsonSchemaToTs,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  SchemaDefinitionError,
  UnsupportedJsonSchemaError,
  type ValueSchemaSpec,
  validateArgs,
  valueSchemaSpecToJsonSchema,
} from '../src/index'

const BOUNDED = {
  count: { type: 'integer', minimum: 1, maximum: 50, required: true },
  ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
  name: { type: 'string', minLength: 1, maxLength: 8, pattern: '^[a-z]+$' },
  email: { type: 'string', format: 'email' },
  tags: {
    type: 'array',
    items: { type: 'string', minLength: 2 },
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
  },
} as const satisfies ParameterSchemaSpec

function definitionError(spec: unknown): SchemaDefinitionError {
  try {
    valueSchemaSpecToJsonSchema(spec as ValueSchemaSpec)
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaDefinitionError)
    return error as SchemaDefinitionError
  }
  throw new Error(`accepted ${JSON.stringify(spec)}`)
}

describe('DSL bounds', () => {
  it('compile to the JSON Schema keywords of the same name', () => {
    expect(parameterSchemaSpecToJsonSchema(BOUNDED)).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 50 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
        name: { type: 'string', minLength: 1, maxLength: 8, pattern: '^[a-z]+$' },
        email: { type: 'string', format: 'email' },
        tags: {
          type: 'array',
          items: { type: 'string', minLength: 2 },
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
        },
      },
      required: ['count'],
    })
  })

  it('are enforced with path-qualified violations', () => {
    const ok = { count: 3, ratio: 0.5, name: 'abc', email: 'a@b.co', tags: ['xy', 'zz'] }
    expect(validateArgs(BOUNDED, ok)).toEqual([])
    const bad = { count: 0, ratio: 1, name: 'ABC', tags: ['xy', 'xy', 'q', 'rr'] }
    expect(validateArgs(BOUNDED, bad).map((v) => v.path)).toEqual(
      expect.arrayContaining(['$.count', '$.ratio', '$.name', '$.tags', '$.tags[2]']),
    )
    expect(validateArgs(BOUNDED, { count: 51 }).map((v) => v.path)).toEqual(['$.count'])
    expect(validateArgs(BOUNDED, { count: 1, ratio: 0.3 }).map((v) => v.path)).toEqual(['$.ratio'])
    expect(validateArgs(BOUNDED, { count: 1, name: '' }).map((v) => v.path)).toEqual(['$.name'])
    expect(validateArgs(BOUNDED, { count: 1, tags: [] }).map((v) => v.path)).toEqual(['$.tags'])
  })

  it('format is an annotation unless formats are asserted', () => {
    const node = valueSchemaSpecToJsonSchema({ type: 'string', format: 'email' })
    expect(compileJsonSchemaValidator(node)('nope')).toEqual([])
    expect(compileJsonSchemaValidator(node, { formats: 'assert' })('nope')).toHaveLength(1)
  })

  it('a bound on a type it does not apply to names the keyword and the type', () => {
    const cases: [unknown, string][] = [
      [
        { type: 'string', minimum: 1 },
        '$.minimum: minimum applies to number and integer specs, not to string specs',
      ],
      [
        { type: 'integer', minLength: 1 },
        '$.minLength: minLength applies to string specs, not to integer specs',
      ],
      [
        { type: 'object', additionalProperties: true, minItems: 1 },
        '$.minItems: minItems applies to array specs, not to object specs',
      ],
      [
        { type: 'boolean', uniqueItems: true },
        '$.uniqueItems: uniqueItems applies to array specs, not to boolean specs',
      ],
      [
        { oneOf: [{ type: 'string' }, { type: 'null' }], pattern: 'a' },
        '$.pattern: pattern applies to string specs, not to oneOf specs',
      ],
      [{ type: 'json', format: 'uri' }, '$.format: format applies to string specs, not to json specs'],
    ]
    for (const [spec, message] of cases) expect(definitionError(spec).message).toBe(message)
  })

  it('bound values are checked', () => {
    const cases: [unknown, string][] = [
      [{ type: 'string', minLength: -1 }, '$.minLength: minLength must be a non-negative integer, got -1'],
      [{ type: 'string', maxLength: 1.5 }, '$.maxLength: maxLength must be a non-negative integer, got 1.5'],
      [{ type: 'array', minItems: '1' }, '$.minItems: minItems must be a non-negative integer, got "1"'],
      [
        { type: 'number', minimum: Number.POSITIVE_INFINITY },
        '$.minimum: minimum must be a finite number, got null',
      ],
      [{ type: 'number', maximum: '3' }, '$.maximum: maximum must be a finite number, got "3"'],
      [{ type: 'integer', multipleOf: 0 }, '$.multipleOf: multipleOf must be greater than 0, got 0'],
      [{ type: 'array', uniqueItems: 1 }, '$.uniqueItems: uniqueItems must be a boolean, got 1'],
      [{ type: 'string', pattern: 5 }, '$.pattern: pattern must be a string, got 5'],
      [
        { type: 'number', minimum: 5, maximum: 1 },
        '$.minimum: minimum 5 is greater than maximum 1: no value would be accepted',
      ],
      [
        { type: 'string', minLength: 3, maxLength: 2 },
        '$.minLength: minLength 3 is greater than maxLength 2: no value would be accepted',
      ],
      [
        { type: 'array', minItems: 3, maxItems: 2 },
        '$.minItems: minItems 3 is greater than maxItems 2: no value would be accepted',
      ],
    ]
    for (const [spec, message] of cases) expect(definitionError(spec).message).toBe(message)
    expect(definitionError({ type: 'string', format: 'emial' }).message).toMatch(
      /^\$\.format: format must be one of date-time, .*email.*, got "emial"$/,
    )
  })

  it('an enum member or const that the bounds refuse is a definition error naming it', () => {
    const refused = (spec: unknown) => {
      try {
        valueSchemaSpecToJsonSchema(spec as ValueSchemaSpec)
      } catch (error) {
        expect(error).toBeInstanceOf(SchemaDefinitionError)
        return (error as SchemaDefinitionError).message
      }
      throw new Error(`accepted ${JSON.stringify(spec)}`)
    }
    expect(refused({ type: 'integer', minimum: 5, enum: [5, 1] })).toBe(
      '$.enum[1]: 1 can never be accepted: expected number >= 5, got 1',
    )
    expect(refused({ type: 'number', exclusiveMaximum: 1, const: 1 })).toMatch(
      /^\$\.const: 1 can never be accepted/,
    )
    expect(refused({ type: 'number', multipleOf: 0.5, enum: [0.75] })).toMatch(/^\$\.enum\[0\]/)
    expect(refused({ type: 'string', maxLength: 2, const: 'abc' })).toMatch(/^\$\.const: "abc" can never/)
    expect(refused({ type: 'string', pattern: '^a', enum: ['ab', 'b'] })).toMatch(/^\$\.enum\[1\]: "b"/)
    // Nested: the path leads to the member.
    expect(
      (() => {
        try {
          parameterSchemaSpecToJsonSchema({ n: { type: 'integer', maximum: 3, enum: [1, 9] } })
        } catch (error) {
          return (error as SchemaDefinitionError).path
        }
      })(),
    ).toBe('$.n.enum[1]')
    // Members within the bounds compile; `format` is not asserted at definition time.
    expect(valueSchemaSpecToJsonSchema({ type: 'integer', minimum: 1, enum: [1, 2] }).enum).toEqual([1, 2])
    expect(valueSchemaSpecToJsonSchema({ type: 'string', format: 'uri', const: 'x' }).const).toBe('x')
  })

  it('a pattern passes the same registration gate as a raw JSON Schema pattern', () => {
    for (const pattern of ['(a)\\1', '(?=a)b', '(', 'a{2,1}']) {
      let raw: unknown
      try {
        compileJsonSchemaValidator({ type: 'string', pattern })
      } catch (error) {
        raw = error
      }
      expect(raw, pattern).toBeInstanceOf(UnsupportedJsonSchemaError)
      const dsl = definitionError({ type: 'string', pattern })
      // Same detail, reported at the DSL path as a definition error.
      expect(dsl.message).toBe(`$.pattern: ${(raw as Error).message.slice('$.pattern: '.length)}`)
    }
    const nested = { tags: { type: 'array', items: { type: 'string', pattern: '(a)\\1' } } }
    expect(() => parameterSchemaSpecToJsonSchema(nested as ParameterSchemaSpec)).toThrow(
      /^\$\.tags\.items\.pattern: pattern "\(a\)\\\\1" is refused: backreferences/,
    )
  })

  it('are shown in the generated TypeScript and Python SDK text', () => {
    const node = parameterSchemaSpecToJsonSchema(BOUNDED)
    const ts = jsonSchemaToTs(node)
    for (const fact of [
      '@minimum 1',
      '@maximum 50',
      '@exclusiveMinimum 0',
      '@exclusiveMaximum 1',
      '@multipleOf 0.25',
      '@minLength 1',
      '@maxLength 8',
      '@pattern ^[a-z]+$',
      '@format email',
      '@minItems 1',
      '@maxItems 3',
      '@uniqueItems',
    ])
      expect(ts, fact).toContain(fact)
    const ctx = createPyRenderContext()
    expect(jsonSchemaToPy(node, ctx.named('SearchArgs'))).toBe('SearchArgs')
    const py = ctx.declarations()
    for (const fact of [
      'minimum: 1',
      'maximum: 50',
      'multipleOf: 0.25',
      'pattern: ^[a-z]+$',
      'format: email',
      'minItems: 1',
      'uniqueItems.',
    ])
      expect(py, fact).toContain(fact)
  })

  it('leave InferArgs / InferValue unchanged (type-level, checked by tsc)', () => {
    expectTypeOf<InferArgs<typeof BOUNDED>>().toEqualTypeOf<{
      count: number
      ratio?: number
      name?: string
      email?: string
      tags?: string[]
    }>()
    expectTypeOf<InferValue<{ type: 'integer'; minimum: 1; enum: readonly [1, 2] }>>().toEqualTypeOf<1 | 2>()
    expectTypeOf<InferValue<{ type: 'string'; pattern: '^a'; const: 'ab' }>>().toEqualTypeOf<'ab'>()
    expectTypeOf<
      InferValue<{ type: 'array'; minItems: 1; items: { type: 'number'; maximum: 2 } }>
    >().toEqualTypeOf<number[]>()
    // A bound on the wrong type, or a bad format name, is a type error too.
    // @ts-expect-error minimum is not a string bound
    const wrong: ValueSchemaSpec = { type: 'string', minimum: 1 }
    // @ts-expect-error not a format the DSL knows
    const typo: ValueSchemaSpec = { type: 'string', format: 'emial' }
    expect([wrong, typo]).toHaveLength(2)
  })
})
