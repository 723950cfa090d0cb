// Differential tests with ajv as the oracle: for schemas of the enforced raw subset and for every
// schema defineTool accepts (DSL parameters, DSL and raw outputs), our validator and ajv must agree
// on valid / invalid for every value. CI runs a fixed seed with 250 raw schemas (≥ 50,000 pairs):
// the raw subset has 19 keywords and types, and each already occurs in at least 27 of them;
// `DSH_LONG=1` runs 500 (≥ 100,000 pairs). DSH_DIFF_RUNS=<schemas> (and optionally DSH_DIFF_SEED)
// for a longer local run.
import { Ajv } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  assertSupportedJsonSchema,
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type JsonSchemaNode,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  type SchemaValidator,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import {
  keyArbitrary,
  rawSchemaArbitrary,
  valueSpecArbitrary,
  valuesNear,
} from './fixtures/schema-arbitraries'

const LONG = process.env.DSH_LONG === '1'
const SCHEMAS = Number(process.env.DSH_DIFF_RUNS ?? (LONG ? 500 : 250))
/** The pairs the raw-subset test must reach. */
const PAIRS = LONG ? 100_000 : 50_000
const SEED = Number(process.env.DSH_DIFF_SEED ?? 20261201)
const VALUES_PER_SCHEMA = 210

// `ownProperties`: without it ajv reads inherited members as present (`{}` "has" `toString`, so a
// required `constructor` passes and a declared `toString` is type-checked against the function).
// A JSON object has only its own members; that is what JSON Schema and our validator check.
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, ownProperties: true })

interface Disagreement {
  mode: string
  schema: string
  value: string
  ours: boolean
  ajv: boolean
}

/**
 * Compares ajv and our validator (generated checks and interpreter) on values near `node`;
 * returns the number of (schema, value) pairs and the first disagreement.
 */
function compare(
  node: JsonSchemaNode,
  ours: () => SchemaValidator,
  seed: number,
): { pairs: number; bad?: Disagreement } {
  const oracle = ajv.compile(node as object)
  const values = fc.sample(valuesNear(node), { seed, numRuns: VALUES_PER_SCHEMA })
  for (const fast of [true, false]) {
    setFastChecksEnabled(fast)
    const validate = ours()
    for (const value of values) {
      const a = validate(value).length === 0
      const b = oracle(value) === true
      if (a !== b) {
        setFastChecksEnabled(true)
        const mode = fast ? 'generated checks' : 'interpreter'
        return {
          pairs: values.length,
          bad: { mode, schema: JSON.stringify(node), value: JSON.stringify(value), ours: a, ajv: b },
        }
      }
    }
  }
  setFastChecksEnabled(true)
  return { pairs: values.length }
}

function run(label: string, schemas: { node: JsonSchemaNode; ours: () => SchemaValidator }[]): number {
  let pairs = 0
  schemas.forEach(({ node, ours }, i) => {
    const result = compare(node, ours, SEED + i)
    pairs += result.pairs
    expect(result.bad, label).toBeUndefined()
  })
  return pairs
}

describe('differential against ajv', { timeout: 120_000 }, () => {
  it(`raw subset schemas: ours and ajv agree on ≥ ${PAIRS.toLocaleString('en')} (schema, value) pairs`, () => {
    const nodes = fc.sample(rawSchemaArbitrary, { seed: SEED, numRuns: SCHEMAS })
    for (const node of nodes) assertSupportedJsonSchema(node)
    const pairs = run(
      'raw schema',
      nodes.map((node) => ({ node, ours: () => compileJsonSchemaValidator(node) })),
    )
    expect(pairs).toBeGreaterThanOrEqual(Math.min(PAIRS, SCHEMAS * VALUES_PER_SCHEMA))
  })

  it('every defineTool schema: DSL parameters, DSL outputs and raw outputs validate exactly what ajv accepts', () => {
    // 62 of each kind in CI and under DSH_LONG=1 alike: a size of its own, not the raw sample's
    const count = Math.max(40, Math.floor(Number(process.env.DSH_DIFF_RUNS ?? 500) / 8))
    const params = fc.sample(
      fc.dictionary(keyArbitrary, fc.record({ spec: valueSpecArbitrary, required: fc.boolean() }), {
        maxKeys: 4,
      }),
      { seed: SEED + 1, numRuns: count },
    )
    const outputs = fc.sample(valueSpecArbitrary, { seed: SEED + 2, numRuns: count })
    const raw = fc.sample(rawSchemaArbitrary, { seed: SEED + 3, numRuns: count })
    const cases: { node: JsonSchemaNode; ours: () => SchemaValidator }[] = []
    for (const fields of params) {
      const spec = Object.fromEntries(
        Object.entries(fields).map(([key, { spec, required }]) => [
          key,
          { ...spec, required: required && key !== '' },
        ]),
      ) as ParameterSchemaSpec
      cases.push({
        node: parameterSchemaSpecToJsonSchema(spec),
        ours: () => compileParameterSpecValidator(spec),
      })
    }
    for (const spec of outputs) {
      cases.push({ node: valueSchemaSpecToJsonSchema(spec), ours: () => compileValueSpecValidator(spec) })
    }
    for (const node of raw) cases.push({ node, ours: () => compileJsonSchemaValidator(node) })
    expect(run('defineTool schema', cases)).toBeGreaterThan(0)
  })
})
