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

describe('assertSupportedJsonSchema', () => {
  it.each([
    ['annotation-only {}', {}],
    ['a scalar root', { type: 'string' }],
    ['an array root with items', { type: 'array', items: { type: 'integer' } }],
    [
      'an object with properties/required/additionalProperties',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: {} },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    ['type-correct enum/const', { type: 'integer', enum: [1, 2], const: 1 }],
    ['enum without type', { enum: ['a', 1, true, null] }],
    ['exact-one oneOf with annotations', { oneOf: [{ type: 'string' }, { type: 'null' }], description: 'x' }],
    ['lossless annotations', { title: 't', description: 'd', default: { a: [1] }, examples: [1, 'x'] }],
  ])('accepts %s', (_name, node) => {
    expect(() => assertSupportedJsonSchema(node)).not.toThrow()
  })

  it.each([
    ['a keyword outside the subset', { type: 'string', minLength: 1 }, '$.minLength'],
    ['anyOf', { anyOf: [{}, {}] }, '$.anyOf'],
    ['$ref', { $ref: '#' }, '$.$ref'],
    ['items on a string', { type: 'string', items: {} }, '$.items'],
    ['properties on an array', { type: 'array', properties: {} }, '$.properties'],
    ['properties without type object', { properties: {} }, '$.properties'],
    ['required names missing from properties', { type: 'object', required: ['x'] }, '$.required[0]'],
    ['a one-branch oneOf', { oneOf: [{}] }, '$.oneOf'],
    ['type arrays', { type: ['string', 'null'] }, '$.type'],
    ['an unknown type', { type: 'date' }, '$.type'],
    ['enum of the wrong type', { type: 'string', enum: ['a', 1] }, '$.enum[1]'],
    ['const of the wrong type', { type: 'integer', const: 1.5 }, '$.const'],
    ['enum on an object', { type: 'object', enum: [1] }, '$.enum'],
    ['non-scalar enum members', { enum: [{}] }, '$.enum[0]'],
    ['a lossy default', { type: 'number', default: Number.NaN }, '$.default'],
    ['a lossy nested example', { examples: [{ a: undefined }] }, '$.examples[0].a'],
    ['a non-string description', { description: 1 }, '$.description'],
    [
      'non-boolean additionalProperties',
      { type: 'object', additionalProperties: {} },
      '$.additionalProperties',
    ],
    ['type beside oneOf', { type: 'string', oneOf: [{}, {}] }, '$.type'],
    ['a non-object node', { type: 'array', items: 'string' }, '$.items'],
    [
      'a nested offender',
      { type: 'object', properties: { 'a b': { type: 'array', items: { type: 'x' } } } },
      '$.properties["a b"].items.type',
    ],
  ])('rejects %s with its path', (_name, node, path) => {
    expect(unsupported(node).path).toBe(path)
  })

  it('rejects cyclic schemas', () => {
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
    expect(unsupported(node).path).toBe('$.type')
    expect(called).toBe(false)
  })
})

describe('assertObjectJsonSchema', () => {
  it('requires an object root', () => {
    expect(() => assertObjectJsonSchema({ type: 'object' })).not.toThrow()
    expect(() => assertObjectJsonSchema({ type: 'string' })).toThrow(UnsupportedJsonSchemaError)
    expect(() => assertObjectJsonSchema({})).toThrow(UnsupportedJsonSchemaError)
  })

  it('still enforces the subset', () => {
    expect(() => assertObjectJsonSchema({ type: 'object', patternProperties: {} })).toThrow(
      /patternProperties/,
    )
  })
})
