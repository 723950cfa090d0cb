import { describe, expect, it } from 'vitest'
import { assertObjectJsonSchema, assertSupportedJsonSchema, UnsupportedJsonSchemaError } from '../src/index'

function unsupported(node: unknown): UnsupportedJsonSchemaError {
  try {
    assertSupportedJsonSchema(node)
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedJsonSchemaError)
    return error as UnsupportedJsonSchemaError
  }
  throw new Error('expected UnsupportedJsonSchemaError')
}

describe('assertSupportedJsonSchema is a well-formedness gate', () => {
  it.each([
    ['annotation-only {}', {}],
    ['boolean schemas', true],
    ['type arrays', { type: ['string', 'null'] }],
    ['any-JSON enum and const', { enum: [{ a: [1] }, [null], 'x'], const: { a: [1] } }],
    ['bounds', { minimum: -1, exclusiveMaximum: 3.5, multipleOf: 0.5, minLength: 0, maxItems: 3 }],
    [
      'combinators',
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
      { anyOf: [{ type: 'string' }], allOf: [true], oneOf: [{}], not: false, if: {}, then: {}, else: {} },
    ],
    ['local refs', { $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } }],
    ['recursive refs', { type: 'object', properties: { next: { $ref: '#' } } }],
    ['unknown keywords', { type: 'string', 'x-vendor': { anything: true }, nullable: true }],
    ['required names without properties', { required: ['a'] }],
    [
      'draft-07 tuples',
      { $schema: 'http://json-schema.org/draft-07/schema#', items: [{}, {}], additionalItems: false },
    ],
  ])('accepts %s', (_name, node) => {
    expect(() => assertSupportedJsonSchema(node)).not.toThrow()
  })

  it.each([
    ['an unknown type', { type: 'x' }, '$.type'],
    ['an empty type array', { type: [] }, '$.type'],
    ['a negative bound', { minLength: -1 }, '$.minLength'],
    ['a fractional count', { maxItems: 1.5 }, '$.maxItems'],
    ['a zero multipleOf', { multipleOf: 0 }, '$.multipleOf'],
    ['a string minimum', { minimum: '1' }, '$.minimum'],
    ['a non-array required', { required: 'a' }, '$.required'],
    ['a non-string required entry', { required: ['a', 1] }, '$.required[1]'],
    ['a duplicated required entry', { required: ['a', 'a'] }, '$.required[1]'],
    ['an empty anyOf', { anyOf: [] }, '$.anyOf'],
    ['a non-schema items', { type: 'array', items: 'string' }, '$.items'],
    ['an invalid pattern', { pattern: '(' }, '$.pattern'],
    ['a pattern that is only invalid with the u flag', { pattern: '\\p' }, '$.pattern'],
    ['an invalid patternProperties key', { patternProperties: { '[': {} } }, '$.patternProperties["["]'],
    ['a remote $ref', { $ref: 'https://example.com/s.json' }, '$.$ref'],
    ['a relative remote $ref', { $ref: 'other.json#/x' }, '$.$ref'],
    ['an unresolvable pointer', { $ref: '#/$defs/missing' }, '$.$ref'],
    ['an unknown anchor', { $ref: '#nowhere' }, '$.$ref'],
    ['a pointer at a non-schema', { components: { a: 1 }, $ref: '#/components/a' }, '$.$ref'],
    ['unevaluatedProperties', { unevaluatedProperties: false }, '$.unevaluatedProperties'],
    ['unevaluatedItems', { unevaluatedItems: false }, '$.unevaluatedItems'],
    ['an unsupported dialect', { $schema: 'http://json-schema.org/draft-03/schema#' }, '$.$schema'],
    ['2020-12 array-form items beside prefixItems', { items: [{}], prefixItems: [{}] }, '$.items'],
    [
      'a nested offender',
      { type: 'object', properties: { 'a b': { type: 'array', items: { type: 'x' } } } },
      '$.properties["a b"].items.type',
    ],
    ['a malformed dependentRequired', { dependentRequired: { a: 'b' } }, '$.dependentRequired.a'],
  ])('rejects %s with its path', (_name, node, path) => {
    expect(unsupported(node).path).toBe(path)
  })

  it('resolves escaped and percent-encoded pointers and anchors', () => {
    expect(() =>
      assertSupportedJsonSchema({
        $defs: {
          'a/b': { type: 'string' },
          'c~d': { type: 'number' },
          'e f': { $anchor: 'ef', type: 'null' },
        },
        anyOf: [
          { $ref: '#/$defs/a~1b' },
          { $ref: '#/$defs/c~0d' },
          { $ref: '#/$defs/e%20f' },
          { $ref: '#ef' },
        ],
      }),
    ).not.toThrow()
    expect(() =>
      assertSupportedJsonSchema({ components: { schemas: { a: {} } }, $ref: '#/components/schemas/a' }),
    ).not.toThrow()
    expect(() => assertSupportedJsonSchema({ definitions: { a: {} }, $ref: '#/definitions/a' })).not.toThrow()
  })

  it.each([
    ['a self-reference', { $ref: '#' }],
    [
      'a two-step $ref loop',
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
    ],
    ['a loop through anyOf', { anyOf: [{ type: 'string' }, { $ref: '#' }] }],
    ['a loop through not', { $defs: { a: { not: { $ref: '#/$defs/a' } } } }],
  ])('rejects %s that never descends into the value', (_name, node) => {
    expect(unsupported(node).message).toMatch(/same value forever/)
  })

  it('rejects cyclic schema objects (a schema must be JSON)', () => {
    const node: Record<string, unknown> = { type: 'array' }
    node.items = node
    expect(unsupported(node).path).toBe('$.items')
  })

  it('accepts shared (non-cyclic) sub-schemas', () => {
    const shared = { type: 'string' }
    expect(() =>
      assertSupportedJsonSchema({ type: 'object', properties: { a: shared, b: shared } }),
    ).not.toThrow()
  })

  it('rejects accessors without invoking them', () => {
    let called = false
    const node = {
      get type() {
        called = true
        return 'string'
      },
    }
    expect(unsupported(node).message).toMatch(/accessor property "type"/)
    expect(called).toBe(false)
  })
})

describe('assertObjectJsonSchema', () => {
  it('requires an object root', () => {
    expect(() => assertObjectJsonSchema({ type: 'object' })).not.toThrow()
    expect(() => assertObjectJsonSchema({ type: 'string' })).toThrow(UnsupportedJsonSchemaError)
    expect(() => assertObjectJsonSchema({})).toThrow(UnsupportedJsonSchemaError)
    expect(() => assertObjectJsonSchema(true)).toThrow(UnsupportedJsonSchemaError)
  })

  it('still checks well-formedness', () => {
    expect(() => assertObjectJsonSchema({ type: 'object', patternProperties: { '(': {} } })).toThrow(
      /invalid pattern/,
    )
  })
})
