// Differential test for the whole §9 keyword list with ajv (draft-07, 2019-09 and 2020-12 builds;
// ajv-formats in assert mode) as the oracle: generated schemas × boundary values, ours and ajv
// must agree on valid / invalid. CI: a fixed seed, 130 schemas per mode (≥ 100,000 pairs): at
// that size every keyword, every `$ref` spelling and, where formats assert, every format that
// the 240 of `DSH_LONG=1` (≥ 200,000 pairs) generate still occurs in each mode.
// DSH_DIFF_RUNS=<schemas per dialect and format mode> (and DSH_DIFF_SEED) for a longer run.
import { Ajv } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019'
import { Ajv2020 } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema } from '../src/index'
import { isMultipleOf } from '../src/internal/multiple-of'
import { boundaryValue, type Dialect, documentArbitrary } from './fixtures/full-schema-arbitraries'

const LONG = process.env.DSH_LONG === '1'
const SCHEMAS = Number(process.env.DSH_DIFF_RUNS ?? (LONG ? 240 : 130))
const SEED = Number(process.env.DSH_DIFF_SEED ?? 20261201)
const VALUES_PER_SCHEMA = 180
/** Every `$id` a resource document (`documentArbitrary(…, true)`) gives its root and defs. */
const RESOURCE_IDS = /^https:\/\/example\.com\/s\//

function ajvFor(dialect: Dialect, formats: 'annotate' | 'assert') {
  // ownProperties: a JSON object has only its own members (see ajv-differential.property.spec).
  const options = {
    strict: false,
    allErrors: false,
    ownProperties: true,
    validateFormats: formats === 'assert',
  }
  const ajv =
    dialect === 'draft-07'
      ? new Ajv(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv2020(options)
  if (formats === 'assert') addFormats.default(ajv)
  return ajv
}

/**
 * Documented disagreements (README "Differences from ajv"), each a bug on ajv's side:
 * - `uri-reference`: ajv-formats accepts a relative reference whose first segment contains ':'
 *   (`10:00:00`, `::1`); RFC 3986 §4.2 forbids it (it would parse as a scheme).
 * - `contains` beside an array-form `items` (draft-07 / 2019-09) or `prefixItems` (2020-12): when a
 *   positional schema is `false`, ajv skips `contains`, so `[]` passes `{ items: [false], contains:
 *   true }` and `{ prefixItems: [true, false], contains: { enum: [-1] } }`; the spec requires at
 *   least one match.
 * - `multipleOf`: ajv divides the doubles (`Number.isInteger(v / m)`); we decide on the decimals the
 *   JSON text means (0.3 is a multiple of 0.1; 1e20 is not one of 3), and ajv's `parseInt` of the
 *   quotient also refuses every quotient ≥ 1e21 (10 is a multiple of 1e-300). Skipped only where the two
 *   rules give different answers for a `multipleOf` in the schema.
 * - `email`: ajv-formats wants a dot in the domain and no quoted local part or address literal;
 *   RFC 5321 allows `a@b`, `"a b"@c.d` and `a@[127.0.0.1]` (as the JSON-Schema-Test-Suite does).
 * - `regex`: ajv-formats compiles the string without the `u` flag; we use the `u` flag, the
 *   same rule as `pattern` (so `\\Z` is not a regex for us).
 */
function knownDisagreement(schema: string, value: unknown): boolean {
  if (numbersIn(value).some((n) => floatAndDecimalMultipleOfDiffer(schema, n))) return true
  if (schema.includes('"email"') && typeof value === 'string' && /@[^.]*$|^"|@\[/.test(value)) return true
  if (
    schema.includes('"uri-reference"') &&
    typeof value === 'string' &&
    /^[^/?#]*:/.test(value) &&
    !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)
  )
    return true
  if (schema.includes('"regex"') && typeof value === 'string' && !isUnicodeRegex(value)) return true
  return (schema.includes('"items":[') || schema.includes('"prefixItems":[')) && schema.includes('"contains"')
}

/** ajv's generated test, `q === parseInt(q)`: also false for quotients ≥ 1e21 (`parseInt("1e+21")` is 1). */
function ajvMultipleOf(value: number, m: number): boolean {
  const quotient = value / m
  return quotient === Number.parseInt(String(quotient), 10)
}

function numbersIn(value: unknown): number[] {
  const found: number[] = []
  JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'number') found.push(member)
    return member
  })
  return found
}

function floatAndDecimalMultipleOfDiffer(schema: string, value: number): boolean {
  for (const [, m] of schema.matchAll(/"multipleOf":([^,}\]]+)/g))
    if (ajvMultipleOf(value, Number(m)) !== isMultipleOf(value, Number(m))) return true
  return false
}

function isUnicodeRegex(source: string): boolean {
  try {
    new RegExp(source, 'u')
    return true
  } catch {
    return false
  }
}

interface Outcome {
  pairs: number
  skipped: number
  disagreements: { schema: string; value: string; ours: boolean; ajv: boolean }[]
}

function run(dialect: Dialect, formats: 'annotate' | 'assert', seed: number, resources: boolean): Outcome {
  const shared = ajvFor(dialect, formats)
  const schemas = fc.sample(documentArbitrary(dialect, resources), { seed, numRuns: SCHEMAS })
  const values = fc.sample(boundaryValue, { seed: seed + 1, numRuns: VALUES_PER_SCHEMA })
  const outcome: Outcome = { pairs: 0, skipped: 0, disagreements: [] }
  for (const schema of schemas) {
    let ours: ReturnType<typeof compileJsonSchemaValidator>
    try {
      ours = compileJsonSchemaValidator(schema as JsonSchema, { formats })
    } catch (error) {
      // Our gate refuses $ref loops that never descend (ajv would overflow the stack on them).
      expect((error as Error).message).toMatch(/same value forever/)
      outcome.skipped++
      continue
    }
    const theirs = shared.compile(schema as object)
    for (const value of values) {
      outcome.pairs++
      const a = ours(value).length === 0
      const b = theirs(value) as boolean
      if (a !== b && !knownDisagreement(JSON.stringify(schema), value) && outcome.disagreements.length < 10)
        outcome.disagreements.push({
          schema: JSON.stringify(schema),
          value: JSON.stringify(value),
          ours: a,
          ajv: b,
        })
    }
    // ajv keeps every compiled `$id` (and refuses to compile a second document that reuses one):
    // drop this document's resources, so the next one meets an ajv as fresh as a new instance
    // without paying for a new instance's meta-schema compile.
    if (resources) shared.removeSchema(RESOURCE_IDS)
  }
  return outcome
}

describe('differential against ajv: the whole keyword list', { timeout: 600_000 }, () => {
  // The last column: documents made of `$id` resources whose refs are URIs (nested bases, anchors).
  const modes: [Dialect, 'annotate' | 'assert', boolean][] = [
    ['2020-12', 'annotate', false],
    ['2020-12', 'assert', false],
    ['2019-09', 'annotate', false],
    ['draft-07', 'annotate', false],
    ['draft-07', 'assert', false],
    ['2020-12', 'annotate', true],
    ['2019-09', 'annotate', true],
  ]
  let total = 0
  it.each(modes)(
    '%s with formats %s (resources: %s): ours and ajv agree on every generated pair',
    (dialect, formats, resources) => {
      const outcome = run(
        dialect,
        formats,
        SEED + modes.findIndex(([d, f, r]) => d === dialect && f === formats && r === resources) * 7,
        resources,
      )
      total += outcome.pairs
      expect(outcome.disagreements).toEqual([])
      expect(outcome.skipped).toBeLessThan(SCHEMAS / 10)
    },
  )

  it(`covers at least ${LONG ? '200,000' : '100,000'} pairs`, () => {
    expect(total).toBeGreaterThanOrEqual(
      Math.min(LONG ? 200_000 : 100_000, SCHEMAS * VALUES_PER_SCHEMA * 5 * 0.9),
    )
  })
})
