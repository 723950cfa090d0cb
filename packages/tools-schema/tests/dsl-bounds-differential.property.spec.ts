// Differential test with ajv as the oracle for DSL specs that carry bounds (numeric, string and
// array bounds, `pattern`, `format`): the compiled validator (generated checks and interpreter)
// and ajv must agree on valid / invalid for every value. Fixed seed; DSH_DIFF_RUNS scales it.
import { Ajv } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type JsonSchemaNode,
  type JsonValue,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  type SchemaValidator,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { keyArbitrary, valuesNear } from './fixtures/schema-arbitraries'

const SCHEMAS = Math.max(40, Math.floor(Number(process.env.DSH_DIFF_RUNS ?? 500) / 5))
const SEED = Number(process.env.DSH_DIFF_SEED ?? 20261203)
const VALUES_PER_SCHEMA = 120

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, ownProperties: true })

const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^.{2}$', 'é|😀']
const STRINGS = ['', 'a', 'ab', 'abc', 'b', 'ba', '1', 'a1', 'é', 'a😀', '😀😀', 'cab', 'abcd']

/** A `[low, high]` pair, either end possibly absent, never crossed. */
function range(min: number, max: number): fc.Arbitrary<[number | undefined, number | undefined]> {
  const end = fc.option(fc.integer({ min, max }), { nil: undefined })
  return fc.tuple(end, end).map(([a, b]) => (a !== undefined && b !== undefined && a > b ? [b, a] : [a, b]))
}

function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined))
}

const numberSpec = fc
  .record({
    type: fc.constantFrom('number', 'integer'),
    inclusive: range(-3, 3),
    exclusive: range(-4, 4),
    multipleOf: fc.option(fc.constantFrom(0.5, 2, 3, 0.25), { nil: undefined }),
  })
  .map(({ type, inclusive, exclusive, multipleOf }) =>
    defined({
      type,
      minimum: inclusive[0],
      maximum: inclusive[1],
      exclusiveMinimum: exclusive[0],
      exclusiveMaximum: exclusive[1],
      multipleOf,
    }),
  )

const stringSpec = fc
  .record({
    length: range(0, 3),
    pattern: fc.option(fc.constantFrom(...PATTERNS), { nil: undefined }),
    format: fc.option(fc.constantFrom('email', 'date', 'uri'), { nil: undefined }),
  })
  .map(({ length, pattern, format }) =>
    defined({ type: 'string', minLength: length[0], maxLength: length[1], pattern, format }),
  )

const boundedSpec: fc.Arbitrary<ValueSchemaSpec> = fc.letrec<{ spec: Record<string, unknown> }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small' },
    numberSpec,
    stringSpec,
    fc
      .record({
        items: fc.option(tie('spec'), { nil: undefined }),
        count: range(0, 3),
        uniqueItems: fc.option(fc.boolean(), { nil: undefined }),
      })
      .map(({ items, count, uniqueItems }) =>
        defined({ type: 'array', items, minItems: count[0], maxItems: count[1], uniqueItems }),
      ),
    fc
      .record({
        fields: fc.dictionary(keyArbitrary, tie('spec'), { maxKeys: 3 }),
        additionalProperties: fc.boolean(),
      })
      .map(({ fields, additionalProperties }) => ({
        type: 'object',
        additionalProperties,
        properties: fields,
      })),
  ),
})).spec as unknown as fc.Arbitrary<ValueSchemaSpec>

/** Values near `node`, plus numbers and strings on and around the bounds. */
function values(node: JsonSchemaNode): fc.Arbitrary<JsonValue> {
  const near = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(-0.5, 0.1, 0.2, 0.3, 1.5, 2.5, 6))
  const strings = fc.constantFrom(...STRINGS)
  return fc.oneof(valuesNear(node), near, strings, fc.array(fc.oneof(near, strings), { maxLength: 4 }))
}

/**
 * ajv's verdict, or undefined where ajv itself throws: its `uniqueItems` deep-equal calls
 * `a.toString()`, so an item object with an own `toString` key crashes it (an oracle bug, no
 * verdict to compare with).
 */
function judge(oracle: (value: unknown) => unknown, value: JsonValue): boolean | undefined {
  try {
    return oracle(value) === true
  } catch {
    return undefined
  }
}

function disagreement(node: JsonSchemaNode, ours: () => SchemaValidator, seed: number): string | undefined {
  const oracle = ajv.compile(node as object)
  const samples = fc.sample(values(node), { seed, numRuns: VALUES_PER_SCHEMA })
  try {
    for (const fast of [true, false]) {
      setFastChecksEnabled(fast)
      const validate = ours()
      for (const value of samples) {
        const expected = judge(oracle, value)
        if (expected === undefined) continue
        if ((validate(value).length === 0) !== expected)
          return `${fast ? 'generated checks' : 'interpreter'}: ${JSON.stringify(node)} on ${JSON.stringify(value)}`
      }
    }
  } finally {
    setFastChecksEnabled(true)
  }
  return undefined
}

describe('DSL bounds against ajv', { timeout: 120_000 }, () => {
  it('DSL value and parameter specs with bounds validate exactly what ajv accepts', () => {
    const specs = fc.sample(boundedSpec, { seed: SEED, numRuns: SCHEMAS })
    const params = fc.sample(
      fc.dictionary(keyArbitrary, fc.record({ spec: boundedSpec, required: fc.boolean() }), { maxKeys: 3 }),
      { seed: SEED + 1, numRuns: SCHEMAS },
    )
    let bounded = 0
    specs.forEach((spec, i) => {
      const node = valueSchemaSpecToJsonSchema(spec)
      if (/minimum|maximum|multipleOf|Length|pattern|Items/.test(JSON.stringify(node))) bounded++
      expect(disagreement(node, () => compileValueSpecValidator(spec), SEED + i)).toBeUndefined()
    })
    params.forEach((fields, i) => {
      const spec = Object.fromEntries(
        // ajv ignores `required: [""]`; the main differential leaves that key optional too.
        Object.entries(fields).map(([key, { spec, required }]) => [
          key,
          { ...spec, required: required && key !== '' },
        ]),
      ) as ParameterSchemaSpec
      const node = parameterSchemaSpecToJsonSchema(spec)
      expect(
        disagreement(node, () => compileParameterSpecValidator(spec), SEED + SCHEMAS + i),
      ).toBeUndefined()
    })
    // The sample really exercises bounds (not only bare containers).
    expect(bounded).toBeGreaterThan(SCHEMAS / 2)
  })
})
