import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  type JsonValue,
  PROVIDER_DIALECTS,
  providerArgsToCanonical,
  toProviderSchema,
} from '../src/index'
import { rootArbitrary, toDialectArgs, valueArbitrary } from './fixtures/dialect-args'

const RUNS = Number(process.env.DIALECT_RUNS ?? 300)

describe('provider dialect round trip', () => {
  for (const dialect of PROVIDER_DIALECTS) {
    it(`canonical args sent in the ${dialect} form read back to the same args`, () => {
      fc.assert(
        fc.property(
          rootArbitrary.chain((schema) => fc.tuple(fc.constant(schema), valueArbitrary(schema))),
          ([schema, args]) => {
            const sent = toDialectArgs(args, schema, schema, dialect)
            expect(providerArgsToCanonical(sent, schema as JsonValue, dialect)).toEqual(args)
          },
        ),
        { numRuns: RUNS, seed: 12 },
      )
    })
  }

  it('every generated schema converts to something the provider checker accepts', () => {
    fc.assert(
      fc.property(rootArbitrary, (schema) => {
        expect(checkOpenAiStrictSchema(toProviderSchema(schema, 'openai-strict').schema)).toEqual([])
        expect(checkGeminiSchema(toProviderSchema(schema, 'gemini').schema)).toEqual([])
      }),
      { numRuns: RUNS, seed: 12 },
    )
  })
})
