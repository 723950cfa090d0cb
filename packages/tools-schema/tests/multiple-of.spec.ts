// `multipleOf` decides on the decimals the JSON text means (src/internal/multiple-of.ts), on both
// paths. The float quotient test is wrong both ways: it refuses 0.3 / 0.1 and accepts 1e20 / 3.
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { isMultipleOf } from '../src/internal/multiple-of'

const RUNS = Number(process.env.DSH_PROPERTY_RUNS ?? 2000)

/** The shortest decimal text of `digits × 10^exponent`, as a JSON number. */
const decimal = (digits: bigint, exponent: number) => Number(`${digits}e${exponent}`)

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('multipleOf (%s)', (_mode, fast) => {
  setFastChecksEnabled(fast)
  afterAll(() => setFastChecksEnabled(true))
  const valid = (multipleOf: number, value: number) =>
    compileJsonSchemaValidator({ multipleOf })(value).length === 0

  it.each([
    [0.1, 0.3],
    [0.01, 0.07],
    [0.01, 19.99],
    [0.0001, 0.0075],
    [1e-8, 12391239123],
    [0.5, -1.5],
    [1.5, 4.5],
    [0.1, 0],
    [1e-300, 1e-290],
    [1e300, 1e308],
    [3, 3e20],
  ])('%s divides %s', (m, value) => {
    expect(valid(m, value)).toBe(true)
  })

  it.each([
    [0.01, 0.075],
    [0.0001, 0.00751],
    [1.5, 35],
    [3, 1e20], // 1e20 / 3 rounds to an integer as a float; 10^20 is no multiple of 3
    [0.123456789, 1e308], // the float quotient overflows to Infinity
    [7, 2 ** 53 + 2],
    [1e-300, 1.5e-300],
  ])('%s does not divide %s', (m, value) => {
    expect(valid(m, value)).toBe(false)
    expect(compileJsonSchemaValidator({ multipleOf: m })(value)).toEqual([
      { path: '$', message: `expected a multiple of ${m}, got ${value}` },
    ])
  })

  it('accepts -0 as 0 and refuses non-numbers only by type', () => {
    expect(valid(0.3, -0)).toBe(true)
    expect(compileJsonSchemaValidator({ multipleOf: 0.3 })('0.1')).toEqual([])
  })
})

describe('isMultipleOf on generated decimals', () => {
  const digits = fc.bigInt({ min: 1n, max: 10n ** 15n })
  const exponent = fc.integer({ min: -20, max: 20 })

  it('n × m is a multiple of m, written with any exponents', () => {
    fc.assert(
      fc.property(digits, exponent, fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }), (d, e, n) => {
        // At most 15 significant digits: every such decimal survives the round trip through a double.
        fc.pre(String(d * n).replace('-', '').length <= 15)
        expect(isMultipleOf(decimal(d * n, e), decimal(d, e))).toBe(true)
      }),
      { seed: 20261201, numRuns: RUNS },
    )
  })

  it('a value one unit off in its last digit is no multiple', () => {
    fc.assert(
      fc.property(digits, exponent, fc.bigInt({ min: 1n, max: 10n ** 6n }), (d, e, n) => {
        fc.pre(d > 1n && String(d * n + 1n).length <= 15)
        // (d·n + 1) mod d = 1, so the exact quotient is never an integer.
        expect(isMultipleOf(decimal(d * n + 1n, e), decimal(d, e))).toBe(false)
      }),
      { seed: 20261202, numRuns: RUNS },
    )
  })

  it('agrees with the float quotient wherever that is exact (safe integers)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 1, max: 10_000 }), (value, m) => {
        expect(isMultipleOf(value, m)).toBe(value % m === 0)
      }),
      { seed: 20261203, numRuns: RUNS },
    )
  })
})
