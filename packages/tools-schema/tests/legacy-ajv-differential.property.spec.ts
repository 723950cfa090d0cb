// Differential test for draft-04 and draft-06 input with ajv as the oracle (ajv-draft-04; ajv's
// draft-07 build with the draft-06 meta-schema): generated documents × boundary values, ours and
// ajv must agree on valid / invalid. Small in CI (a fixed seed); DSH_DIFF_RUNS / DSH_DIFF_SEED for
// a longer run, as in full-ajv-differential.property.spec.ts.
import { createRequire } from 'node:module'
import { Ajv } from 'ajv'
import AjvDraft04 from 'ajv-draft-04'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema } from '../src/index'
import { isMultipleOf } from '../src/internal/multiple-of'
import { boundaryValue } from './fixtures/full-schema-arbitraries'
import { type LegacyDialect, legacyDocumentArbitrary } from './fixtures/legacy-schema-arbitraries'

const SCHEMAS = Number(process.env.DSH_DIFF_RUNS ?? 60)
const SEED = Number(process.env.DSH_DIFF_SEED ?? 20261203)
const VALUES_PER_SCHEMA = 120

function ajvFor(dialect: LegacyDialect) {
  // validateSchema off: the generator nests boolean schemas, which the draft-04 meta-schema lacks
  // (ajv evaluates them all the same). ownProperties: a JSON object has only its own members.
  const options = { strict: false, validateSchema: false, ownProperties: true, validateFormats: false }
  if (dialect === 'draft-04') return new AjvDraft04(options)
  const ajv = new Ajv(options)
  ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'))
  return ajv
}

/** ajv's `multipleOf` divides doubles (README "Differences from ajv"); skipped where the rules differ. */
function multipleOfDiffers(schema: string, value: unknown): boolean {
  const numbers: number[] = []
  JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'number') numbers.push(member)
    return member
  })
  for (const [, m] of schema.matchAll(/"multipleOf":([^,}\]]+)/g))
    for (const n of numbers) {
      const quotient = n / Number(m)
      if ((quotient === Number.parseInt(String(quotient), 10)) !== isMultipleOf(n, Number(m))) return true
    }
  return false
}

describe('differential against ajv: draft-04 and draft-06 documents', { timeout: 120_000 }, () => {
  it.each(['draft-04', 'draft-06'] as const)('%s: ours and ajv agree on every generated pair', (dialect) => {
    const ajv = ajvFor(dialect)
    const seed = SEED + (dialect === 'draft-04' ? 0 : 7)
    const schemas = fc.sample(legacyDocumentArbitrary(dialect), { seed, numRuns: SCHEMAS })
    const values = fc.sample(boundaryValue, { seed: seed + 1, numRuns: VALUES_PER_SCHEMA })
    const disagreements: { schema: string; value: string; ours: boolean; ajv: boolean }[] = []
    let pairs = 0
    let skipped = 0
    for (const schema of schemas) {
      let ours: ReturnType<typeof compileJsonSchemaValidator>
      try {
        ours = compileJsonSchemaValidator(schema as JsonSchema)
      } catch (error) {
        // Our gate refuses $ref loops that never descend (ajv would overflow the stack on them).
        expect((error as Error).message).toMatch(/same value forever/)
        skipped++
        continue
      }
      const theirs = ajv.compile(schema as object)
      const text = JSON.stringify(schema)
      for (const value of values) {
        pairs++
        const a = ours(value).length === 0
        const b = theirs(value) as boolean
        if (a !== b && !multipleOfDiffers(text, value) && disagreements.length < 10)
          disagreements.push({ schema: text, value: JSON.stringify(value), ours: a, ajv: b })
      }
      ajv.removeSchema(schema as object)
    }
    expect(disagreements).toEqual([])
    expect(skipped).toBeLessThan(SCHEMAS / 10)
    expect(pairs).toBeGreaterThanOrEqual(SCHEMAS * VALUES_PER_SCHEMA * 0.9)
    // The generator does reach the draft-04 spellings it exists for.
    if (dialect === 'draft-04') {
      expect(schemas.some((s) => JSON.stringify(s).includes('"exclusiveMinimum":true'))).toBe(true)
      expect(schemas.some((s) => JSON.stringify(s).includes('"nullable":true'))).toBe(true)
    }
  })
})
