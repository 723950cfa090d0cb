import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  assertSupportedJsonSchema,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type InferArgs,
  type InferValue,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  SchemaDefinitionError,
  UnsupportedJsonSchemaError,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '../src/index'

const annotated = {
  path: {
    type: 'string',
    required: true,
    title: 'Path',
    description: 'Where',
    default: '/tmp',
    examples: ['/a', '/b'],
    deprecated: false,
  },
  mode: { type: 'string', enum: ['a', 'b'], default: 'a', deprecated: true },
  limit: { type: 'integer', default: 10, examples: [1, 2] },
  opts: {
    type: 'object',
    additionalProperties: false,
    title: 'Options',
    default: { deep: [1, { x: null }] },
    properties: { deep: { type: 'json', examples: [{ any: 'thing' }, null] } },
  },
  pick: { oneOf: [{ type: 'string' }, { type: 'null' }], default: null, examples: ['x'] },
} as const satisfies ParameterSchemaSpec

const plain = {
  path: { type: 'string', required: true },
  mode: { type: 'string', enum: ['a', 'b'] },
  limit: { type: 'integer' },
  opts: { type: 'object', additionalProperties: false, properties: { deep: { type: 'json' } } },
  pick: { oneOf: [{ type: 'string' }, { type: 'null' }] },
} as const satisfies ParameterSchemaSpec

describe('DSL annotations', () => {
  it('do not change InferArgs / InferValue', () => {
    expectTypeOf<InferArgs<typeof annotated>>().toEqualTypeOf<InferArgs<typeof plain>>()
    expectTypeOf<InferValue<typeof annotated.opts>>().toEqualTypeOf<InferValue<typeof plain.opts>>()
    expectTypeOf<InferValue<{ type: 'number'; default: 1; deprecated: true }>>().toEqualTypeOf<number>()
  })

  it('compile into the JSON Schema as deep-frozen lossless copies', () => {
    const node = parameterSchemaSpecToJsonSchema(annotated)
    expect(node.properties!.path).toEqual({
      type: 'string',
      title: 'Path',
      description: 'Where',
      default: '/tmp',
      examples: ['/a', '/b'],
      deprecated: false,
    })
    expect(node.properties!.mode).toEqual({
      type: 'string',
      enum: ['a', 'b'],
      default: 'a',
      deprecated: true,
    })
    expect(node.properties!.opts!.default).toEqual({ deep: [1, { x: null }] })
    expect(node.properties!.opts!.default).not.toBe(annotated.opts.default)
    expect(Object.isFrozen((node.properties!.opts!.default as { deep: object }).deep)).toBe(true)
    expect(node.properties!.pick).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
      default: null,
      examples: ['x'],
    })
    expect(() => assertSupportedJsonSchema(node)).not.toThrow()
    const value = valueSchemaSpecToJsonSchema({ type: 'json', title: 'T', default: [1], deprecated: true })
    expect(value).toEqual({ title: 'T', default: [1], deprecated: true })
  })

  it('are never applied as defaults and never change what validates', () => {
    const check = compileParameterSpecValidator(annotated)
    const args = { path: 'x' }
    expect(check(args)).toEqual([])
    expect(args).toEqual({ path: 'x' })
    expect(check({})).toEqual([{ path: '$', message: 'missing required property "path"' }])
    // a default or example that does not match its type is only documentation
    expect(
      compileValueSpecValidator({ type: 'string', default: 1 as never, examples: [2] as never })('s'),
    ).toEqual([])
    expect(compileValueSpecValidator({ type: 'string', default: 'x' })(1)).toHaveLength(1)
  })

  it('must be lossless JSON (deprecated: a boolean), with a path', () => {
    const bad: [ValueSchemaSpec, string][] = [
      [{ type: 'string', default: Number.NaN } as never, '$.default'],
      [{ type: 'string', default: { a: new Map() } } as never, '$.default.a'],
      [{ type: 'string', default: undefined } as never, '$.default'],
      [{ type: 'string', examples: 'x' } as never, '$.examples'],
      [{ type: 'string', examples: [1, () => 1] } as never, '$.examples[1]'],
      [{ type: 'string', deprecated: 'yes' } as never, '$.deprecated'],
      [{ type: 'string', title: 1 } as never, '$.title'],
    ]
    for (const [spec, path] of bad) {
      let thrown: unknown
      try {
        valueSchemaSpecToJsonSchema(spec)
      } catch (error) {
        thrown = error
      }
      expect(thrown, path).toBeInstanceOf(SchemaDefinitionError)
      expect((thrown as SchemaDefinitionError).path, path).toBe(path)
    }
    expect(() => assertSupportedJsonSchema({ deprecated: 'no' } as never)).toThrow(UnsupportedJsonSchemaError)
  })
})
