// A spec known only at run time is typed with the wide `ValueSchemaSpec` / `ParameterSchemaSpec`:
// inference must answer `JsonValue` at once instead of expanding the recursive spec union 16
// levels deep (TS2589 "excessively deep", issue 22). Checked by tsc over this file.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type {
  InferArgs,
  InferValue,
  JsonValue,
  ParameterFieldSpec,
  ParameterSchemaSpec,
  ValueSchemaSpec,
} from '../src/index'

describe('InferValue / InferArgs of the wide spec types', () => {
  it('are JsonValue and an optional JsonValue record', () => {
    expectTypeOf<InferValue<ValueSchemaSpec>>().toEqualTypeOf<JsonValue>()
    expectTypeOf<InferValue<ParameterFieldSpec>>().toEqualTypeOf<JsonValue>()
    expectTypeOf<InferArgs<ParameterSchemaSpec>>().toEqualTypeOf<Partial<Record<string, JsonValue>>>()
    const args: InferArgs<ParameterSchemaSpec> = { any: [1, { a: null }] }
    expect(args).toBeDefined()
  })

  it('literal specs are unaffected', () => {
    expectTypeOf<InferValue<{ type: 'string' }>>().toEqualTypeOf<string>()
    expectTypeOf<InferValue<{ type: 'array'; items: { type: 'null' } }>>().toEqualTypeOf<null[]>()
  })
})
