import { describe, expectTypeOf, it } from 'vitest'
import type { InferArgs, InferValue, JsonValue, ParameterSchemaSpec, ValueSchemaSpec } from '../src/index'

describe('InferValue / InferArgs (type-level, checked by tsc)', () => {
  it('infers scalars, enums and consts', () => {
    expectTypeOf<InferValue<{ type: 'string' }>>().toEqualTypeOf<string>()
    expectTypeOf<InferValue<{ type: 'integer' }>>().toEqualTypeOf<number>()
    expectTypeOf<InferValue<{ type: 'boolean' }>>().toEqualTypeOf<boolean>()
    expectTypeOf<InferValue<{ type: 'null' }>>().toEqualTypeOf<null>()
    expectTypeOf<InferValue<{ type: 'json' }>>().toEqualTypeOf<JsonValue>()
    expectTypeOf<InferValue<{ type: 'string'; enum: readonly ['a', 'b'] }>>().toEqualTypeOf<'a' | 'b'>()
    expectTypeOf<InferValue<{ type: 'number'; const: 3 }>>().toEqualTypeOf<3>()
  })

  it('infers arrays, objects and oneOf', () => {
    expectTypeOf<InferValue<{ type: 'array'; items: { type: 'string' } }>>().toEqualTypeOf<string[]>()
    expectTypeOf<InferValue<{ type: 'array' }>>().toEqualTypeOf<JsonValue[]>()
    type Obj = {
      type: 'object'
      additionalProperties: false
      properties: { a: { type: 'string'; required: true }; b: { type: 'integer' } }
    }
    expectTypeOf<InferValue<Obj>>().toEqualTypeOf<{ a: string; b?: number }>()
    expectTypeOf<InferValue<{ oneOf: readonly [{ type: 'string' }, { type: 'null' }] }>>().toEqualTypeOf<
      string | null
    >()
    expectTypeOf<
      InferValue<{ anyOf: readonly [{ type: 'integer' }, { type: 'string'; enum: ['a'] }] }>
    >().toEqualTypeOf<number | 'a'>()
    expectTypeOf<{ anyOf: [{ type: 'string' }, { type: 'null' }] }>().toMatchTypeOf<ValueSchemaSpec>()
  })

  it('InferArgs makes required: true fields required and the rest optional', () => {
    const spec = {
      path: { type: 'string', required: true },
      offset: { type: 'number' },
      mode: { type: 'string', enum: ['r', 'w'], required: false },
    } as const satisfies ParameterSchemaSpec
    expectTypeOf<InferArgs<typeof spec>>().toEqualTypeOf<{
      path: string
      offset?: number
      mode?: 'r' | 'w'
    }>()
  })

  it('is exact through 16 container levels, then JsonValue', () => {
    type Nest<S, N extends unknown[]> = N['length'] extends 0
      ? S
      : Nest<{ type: 'array'; items: S }, N extends [unknown, ...infer R] ? R : []>
    type Sixteen = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    type Exact = Nest<{ type: 'string' }, Sixteen>
    expectTypeOf<InferValue<Exact>>().toEqualTypeOf<string[][][][][][][][][][][][][][][][]>()
    type Deeper = Nest<{ type: 'string' }, [0, ...Sixteen]>
    expectTypeOf<InferValue<Deeper>>().toEqualTypeOf<JsonValue[][][][][][][][][][][][][][][][]>()
  })

  it('spec types accept literal specs', () => {
    expectTypeOf<{ type: 'object'; additionalProperties: true }>().toMatchTypeOf<ValueSchemaSpec>()
    expectTypeOf<{ oneOf: [{ type: 'string' }, { type: 'null' }] }>().toMatchTypeOf<ValueSchemaSpec>()
  })
})
