import { describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  type JsonSchemaNode,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  SchemaDefinitionError,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '../src/index'

function definitionError(compile: () => unknown): SchemaDefinitionError {
  try {
    compile()
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaDefinitionError)
    return error as SchemaDefinitionError
  }
  throw new Error('expected a SchemaDefinitionError')
}

const value = (spec: unknown) => () => valueSchemaSpecToJsonSchema(spec as ValueSchemaSpec)
const params = (spec: unknown) => () => parameterSchemaSpecToJsonSchema(spec as ParameterSchemaSpec)

describe('parameterSchemaSpecToJsonSchema', () => {
  it('compiles to an implicit open object root with required names', () => {
    const node = parameterSchemaSpecToJsonSchema({
      path: { type: 'string', required: true, description: 'Absolute file path' },
      offset: { type: 'number' },
      limit: { type: 'integer', required: false },
    })
    expect(node).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Absolute file path' },
        offset: { type: 'number' },
        limit: { type: 'integer' },
      },
      required: ['path'],
    })
    expect('additionalProperties' in node).toBe(false)
  })

  it('omits required when no field is required', () => {
    expect(parameterSchemaSpecToJsonSchema({ a: { type: 'boolean' } })).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean' } },
    })
  })

  it('returns a deep-frozen node', () => {
    const node = parameterSchemaSpecToJsonSchema({
      a: { type: 'array', items: { type: 'string', enum: ['x'] } },
    })
    expect(Object.isFrozen(node)).toBe(true)
    expect(Object.isFrozen(node.properties)).toBe(true)
    const a = node.properties?.a as JsonSchemaNode | undefined
    expect(Object.isFrozen((a?.items as JsonSchemaNode | undefined)?.enum)).toBe(true)
  })

  it('rejects symbol keys in the parameter record', () => {
    definitionError(params({ [Symbol('x')]: { type: 'string' } }))
  })

  it('rejects non-enumerable keys in schema records', () => {
    const spec = Object.defineProperty({}, 'hidden', { value: { type: 'string' }, enumerable: false })
    expect(definitionError(params(spec)).path).toBe('$.hidden')
  })

  it('rejects inherited (non-own) keys in schema records', () => {
    const spec = Object.create({ inherited: { type: 'string' } })
    expect(definitionError(params(spec)).path).toBe('$.inherited')
  })

  it('rejects accessor fields without evaluating them', () => {
    let called = false
    const spec = {
      get a() {
        called = true
        return { type: 'string' }
      },
    }
    expect(definitionError(params(spec)).path).toBe('$.a')
    expect(called).toBe(false)
  })
})

describe('valueSchemaSpecToJsonSchema', () => {
  it('compiles every kind', () => {
    expect(
      valueSchemaSpecToJsonSchema({
        type: 'object',
        additionalProperties: false,
        properties: {
          s: { type: 'string', enum: ['a', 'b'], required: true },
          n: { type: 'number', const: 1.5 },
          i: { type: 'integer' },
          b: { type: 'boolean' },
          z: { type: 'null' },
          list: { type: 'array', items: { type: 'json' } },
          any: { type: 'json', description: 'anything' },
          pick: { oneOf: [{ type: 'string' }, { type: 'array' }] },
          open: { type: 'object', additionalProperties: true },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        s: { type: 'string', enum: ['a', 'b'] },
        n: { type: 'number', const: 1.5 },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        z: { type: 'null' },
        list: { type: 'array', items: {} },
        any: { description: 'anything' },
        pick: { oneOf: [{ type: 'string' }, { type: 'array' }] },
        open: { type: 'object', additionalProperties: true },
      },
      required: ['s'],
      additionalProperties: false,
    })
  })

  it('compiles json to the annotation-only node', () => {
    expect(valueSchemaSpecToJsonSchema({ type: 'json' })).toEqual({})
  })

  it.each([
    ['string enum with a number', { type: 'string', enum: ['a', 1] }, '$.enum[1]'],
    ['integer enum with a fraction', { type: 'integer', enum: [1, 1.5] }, '$.enum[1]'],
    ['boolean const with a string', { type: 'boolean', const: 'true' }, '$.const'],
    ['number const NaN', { type: 'number', const: Number.NaN }, '$.const'],
  ])('rejects a type mismatch: %s', (_name, spec, path) => {
    expect(definitionError(value(spec)).path).toBe(path)
  })

  it('rejects an explicit object without additionalProperties', () => {
    expect(definitionError(value({ type: 'array', items: { type: 'object', properties: {} } })).path).toBe(
      '$.items.additionalProperties',
    )
  })

  it('rejects an unknown type', () => {
    expect(definitionError(value({ type: 'date' })).path).toBe('$.type')
  })

  it('rejects an unknown keyword', () => {
    // `minLength` is a string bound now (tests/dsl-bounds.spec.ts); a misspelling is unknown.
    expect(definitionError(value({ type: 'string', minLenght: 1 })).path).toBe('$.minLenght')
  })

  it('rejects required outside a property position', () => {
    expect(definitionError(value({ type: 'array', items: { type: 'string', required: true } })).path).toBe(
      '$.items.required',
    )
  })

  it.each([[[]], [[{ type: 'string' }]]])('rejects a oneOf with fewer than two branches (%j)', (branches) => {
    expect(definitionError(value({ oneOf: branches })).path).toBe('$.oneOf')
  })

  it.each([[[]], [[{ type: 'string' }]]])(
    'rejects an anyOf with fewer than two branches (%j)',
    (branches) => {
      expect(definitionError(value({ anyOf: branches })).path).toBe('$.anyOf')
    },
  )

  it('compiles anyOf: overlapping branches accept a value oneOf refuses', () => {
    const any = valueSchemaSpecToJsonSchema({
      description: 'a link or any text',
      anyOf: [
        { type: 'string', format: 'uri' },
        { type: 'string', maxLength: 100 },
      ],
    })
    expect(any).toEqual({
      description: 'a link or any text',
      anyOf: [
        { type: 'string', format: 'uri' },
        { type: 'string', maxLength: 100 },
      ],
    })
    expect(Object.isFrozen(any.anyOf)).toBe(true)
    const one = valueSchemaSpecToJsonSchema({
      oneOf: [{ type: 'string' }, { type: 'string', maxLength: 100 }],
    })
    expect(compileJsonSchemaValidator(any)('https://example.com')).toEqual([])
    expect(compileJsonSchemaValidator(one)('https://example.com')).not.toEqual([])
    expect(compileJsonSchemaValidator(any)(3)).not.toEqual([])
  })

  it('rejects a spec with both oneOf and anyOf, a combinator spelled as a type, and a type beside anyOf', () => {
    const both = definitionError(value({ oneOf: [{ type: 'null' }, { type: 'string' }], anyOf: [] }))
    expect(both.path).toBe('$')
    expect(both.message).toContain('not both')
    expect(definitionError(value({ type: 'anyOf' })).path).toBe('$.type')
    expect(definitionError(value({ type: 'oneOf' })).path).toBe('$.type')
    expect(
      definitionError(value({ type: 'string', anyOf: [{ type: 'null' }, { type: 'string' }] })).path,
    ).toBe('$.type')
    // A bound beside a combinator belongs inside a branch.
    expect(definitionError(value({ minLength: 1, anyOf: [{ type: 'null' }, { type: 'string' }] })).path).toBe(
      '$.minLength',
    )
  })

  it('rejects sparse arrays', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(definitionError(value({ oneOf: [{ type: 'string' }, , { type: 'null' }] })).path).toBe(
      '$.oneOf[1]',
    )
  })

  it('rejects non-array enum and oneOf', () => {
    expect(definitionError(value({ type: 'string', enum: 'a' })).path).toBe('$.enum')
    expect(definitionError(value({ oneOf: { 0: { type: 'string' }, 1: { type: 'null' } } })).path).toBe(
      '$.oneOf',
    )
  })

  it('reports nested paths', () => {
    const spec = {
      type: 'object',
      additionalProperties: false,
      properties: { 'a b': { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'nope' }] } } },
    }
    expect(definitionError(value(spec)).path).toBe('$.properties["a b"].items.oneOf[1].type')
  })
})
