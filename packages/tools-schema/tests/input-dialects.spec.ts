// Input dialects beyond draft-07 / 2019-09 / 2020-12 (README "Input dialects"): draft-04 and
// draft-06 by `$schema`, the OpenAPI 3.0 / draft-04 spellings that have one meaning in every
// dialect (`nullable: true`, a boolean exclusive bound, `dependencies`), and what
// `normalizeSchema` makes of them.
import { describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  type JsonSchema,
  jsonSchemaToTs,
  lintSchema,
  normalizeSchema,
  validateJsonSchemaValue,
} from '../src/index'

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#'
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#'
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const verdict = (schema: unknown, value: unknown) => violations(schema, value).length === 0
// The legacy spellings are not in the `JsonSchemaNode` type (it describes the standard form).
const violations = (schema: unknown, value: unknown) => validateJsonSchemaValue(schema as JsonSchema, value)

describe('draft-04 documents', () => {
  it('boolean exclusiveMinimum / exclusiveMaximum make minimum / maximum exclusive', () => {
    const schema = {
      $schema: DRAFT_04,
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    }
    expect([0, 0.5, 9.5, 10].map((v) => verdict(schema, v))).toEqual([false, true, true, false])
    expect(violations(schema, 0)).toEqual([{ path: '$', message: 'expected number > 0, got 0' }])
    const inclusive = { $schema: DRAFT_04, minimum: 0, exclusiveMinimum: false }
    expect([-1, 0].map((v) => verdict(inclusive, v))).toEqual([false, true])
  })

  it('id sets the base URI and names anchors, as $id does in later drafts', () => {
    const schema = {
      $schema: DRAFT_04,
      id: 'https://example.com/schemas/root.json',
      definitions: {
        name: { id: 'name.json', type: 'string', minLength: 2 },
        count: { id: '#count', type: 'integer' },
      },
      properties: { name: { $ref: 'name.json' }, count: { $ref: '#count' } },
    }
    expect(verdict(schema, { name: 'ab', count: 2 })).toBe(true)
    expect(verdict(schema, { name: 'a' })).toBe(false)
    expect(verdict(schema, { count: 1.5 })).toBe(false)
  })

  it('keywords added after draft-04 are ignored, and keywords beside $ref too', () => {
    const schema = {
      $schema: DRAFT_04,
      definitions: { s: { type: 'string' } },
      properties: {
        c: { const: 1, contains: { type: 'string' }, propertyNames: { maxLength: 1 } },
        r: { $ref: '#/definitions/s', minLength: 5 },
      },
    }
    expect(verdict(schema, { c: [2], r: 'x' })).toBe(true)
    expect(verdict(schema, { c: { long: 1 }, r: 1 })).toBe(false)
    expect(lintSchema(schema).map((lint) => lint.path)).toEqual(
      expect.arrayContaining(['$.properties.c.const', '$.properties.r.minLength']),
    )
  })
})

describe('draft-06 documents', () => {
  it('are read as draft-07 without if / then / else', () => {
    // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
    const schema = { $schema: DRAFT_06, exclusiveMinimum: 0, const: 1, if: true, then: false }
    expect(verdict(schema, 1)).toBe(true)
    expect(verdict(schema, 2)).toBe(false)
    expect(validateJsonSchemaValue({ $schema: DRAFT_06, exclusiveMinimum: 0 }, 0)).toHaveLength(1)
  })

  it('an unsupported $schema still names the supported ones', () => {
    expect(() => compileJsonSchemaValidator({ $schema: 'http://json-schema.org/draft-03/schema#' })).toThrow(
      /expected draft-04, draft-06, draft-07, 2019-09 or 2020-12/,
    )
  })
})

describe('spellings with one meaning in every dialect', () => {
  it('a boolean exclusiveMinimum (OpenAPI 3.0) is read as the modifier, and lintSchema says so', () => {
    const schema = { type: 'number', minimum: 0, exclusiveMinimum: true } as unknown as JsonSchema
    expect([0, 1].map((v) => verdict(schema, v))).toEqual([false, true])
    expect(lintSchema(schema)).toEqual([
      {
        path: '$.exclusiveMinimum',
        message: 'boolean "exclusiveMinimum" is read as the draft-04 / OpenAPI 3.0 modifier',
      },
    ])
  })

  it('nullable: true accepts null wherever the SDK type says `| null`', () => {
    const cases: [unknown, string][] = [
      [{ type: 'string', nullable: true }, 'string | null'],
      [{ type: 'string', enum: ['a', 'b'], nullable: true }, '"a" | "b" | null'],
      [{ type: 'integer', minimum: 1, nullable: true }, 'number | null'],
      [{ anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true }, 'string | number | null'],
      [{ allOf: [{ $ref: '#/$defs/s' }], nullable: true, $defs: { s: { type: 'string' } } }, ''],
      [{ const: 'x', nullable: true }, '"x" | null'],
    ]
    for (const [schema, type] of cases) {
      expect(verdict(schema, null), JSON.stringify(schema)).toBe(true)
      expect(verdict(schema, true), JSON.stringify(schema)).toBe(false)
      if (type !== '') expect(jsonSchemaToTs(schema as JsonSchema)).toBe(type)
    }
    expect(validateJsonSchemaValue({ type: 'string', nullable: true }, 1)).toEqual([
      { path: '$', message: expect.stringMatching(/^expected string or null, got number/) },
    ])
  })

  it('nullable beside $ref is ignored up to draft-07 (every sibling of $ref is) and read after', () => {
    const defs = { definitions: { s: { type: 'string' } } }
    expect(verdict({ $schema: DRAFT_07, ...defs, $ref: '#/definitions/s', nullable: true }, null)).toBe(false)
    expect(verdict({ ...defs, $ref: '#/definitions/s', nullable: true }, null)).toBe(true)
    expect(verdict({ type: 'string', nullable: false }, null)).toBe(false)
  })

  it('dependencies (array and schema forms) is enforced without $schema and in 2019-09', () => {
    for (const $schema of [undefined, 'https://json-schema.org/draft/2019-09/schema', DRAFT_07]) {
      const schema = {
        ...($schema === undefined ? {} : { $schema }),
        dependencies: { card: ['address'], vip: { required: ['since'] } },
      }
      expect(verdict(schema, { card: 1, address: 'x', vip: true, since: 2020 })).toBe(true)
      expect(violations(schema, { card: 1 })).toEqual([
        { path: '$', message: 'property "card" requires property "address"' },
      ])
      expect(verdict(schema, { vip: true })).toBe(false)
    }
  })
})

describe('draft-07 tuples without $schema', () => {
  it("array-form items (pydantic v1's tuples) is the tuple form; additionalItems applies after it", () => {
    const pair = { type: 'array', items: [{ type: 'integer' }, { type: 'string' }], additionalItems: false }
    expect(verdict(pair, [1, 'a'])).toBe(true)
    expect(verdict(pair, ['a', 1])).toBe(false)
    expect(verdict(pair, [1, 'a', 2])).toBe(false)
    expect(lintSchema(pair)).toEqual([])
    expect(jsonSchemaToTs(pair as JsonSchema)).toBe('[number?, string?]')
  })
})

describe('normalizeSchema', () => {
  it("from 'json-schema' rewrites a draft-04 document as draft-07 with the same verdicts", () => {
    const source = {
      $schema: DRAFT_04,
      id: 'https://example.com/pet.json',
      type: 'object',
      properties: {
        price: { type: 'number', minimum: 0, exclusiveMinimum: true },
        tag: { type: 'string', nullable: true },
        c: { const: 1 },
      },
    }
    const out = normalizeSchema(source as unknown as JsonSchema, { from: 'json-schema' })
    expect(out).toEqual({
      $schema: DRAFT_07,
      $id: 'https://example.com/pet.json',
      type: 'object',
      properties: {
        price: { type: 'number', exclusiveMinimum: 0 },
        tag: { type: ['string', 'null'] },
        c: {},
      },
    })
    expect(source.properties.price.exclusiveMinimum).toBe(true)
    for (const value of [{ price: 0 }, { price: 1, tag: null }, { c: 2 }, { tag: 1 }])
      expect(verdict(out, value), JSON.stringify(value)).toBe(verdict(source, value))
  })

  it("from 'gemini' reads upper-case types and the counts Gemini's JSON writes as strings", () => {
    const declaration = {
      name: 'set_alarms',
      parameters: {
        type: 'OBJECT',
        properties: {
          times: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1', maxItems: '3' },
          label: { type: 'STRING', maxLength: '20', nullable: true },
        },
        required: ['times'],
      },
    }
    const schema = normalizeSchema(declaration.parameters as unknown as JsonSchema, { from: 'gemini' })
    expect(verdict(schema, { times: ['07:00'], label: null })).toBe(true)
    expect(verdict(schema, { times: [] })).toBe(false)
    expect(verdict(schema, { times: ['a', 'b', 'c', 'd'] })).toBe(false)
  })

  it('an upper-case type given without normalizeSchema says how to convert it', () => {
    expect(() => compileJsonSchemaValidator({ type: 'OBJECT' } as unknown as JsonSchema)).toThrow(
      "unknown type \"OBJECT\" (Gemini's upper-case type names: convert the schema with normalizeSchema(schema, { from: 'gemini' }))",
    )
  })
})
