import { describe, expect, it } from 'vitest'
import { CodeModeConfigSchema, DEFAULT_CODE_MODE_CONFIG } from '../src/config'

const validate = (input: unknown) => CodeModeConfigSchema['~standard'].validate(input)

const DEFAULTS = {
  maxParallelSubCalls: 10,
  maxSubCallsPerRun: 10_000,
  maxOutstandingSubCalls: 1_000,
  maxQueuedArgumentBytes: 67_108_864,
  maxArgumentNodes: 20_000,
  maxArgumentDepth: 100,
  maxArgumentStringLength: 33_554_432,
  subCallDrainMs: 5_000,
}
const KEYS = Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]

describe('CodeModeConfigSchema', () => {
  it('absent fields take the documented defaults', () => {
    expect(DEFAULT_CODE_MODE_CONFIG).toEqual(DEFAULTS)
    expect(validate(undefined)).toEqual({ value: DEFAULTS })
    expect(validate({})).toEqual({ value: DEFAULTS })
  })

  it('accepts any integer ≥ 1 for every key (maxParallelSubCalls 1 = serial)', () => {
    for (const key of KEYS) {
      expect(validate({ [key]: 1 })).toEqual({ value: { ...DEFAULTS, [key]: 1 } })
      expect(validate({ [key]: 64 })).toEqual({ value: { ...DEFAULTS, [key]: 64 } })
    }
  })

  for (const key of KEYS) {
    it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '4', null])(
      `rejects ${key} %s, naming the key`,
      (bad) => {
        const result = validate({ [key]: bad })
        expect(result.issues?.[0]?.path).toEqual([key])
      },
    )
  }

  it('rejects unknown keys and non-objects', () => {
    expect(validate({ maxParallel: 3 })).toHaveProperty('issues')
    expect(validate(5)).toHaveProperty('issues')
    expect(validate([])).toHaveProperty('issues')
  })

  it('words issues like argument errors', () => {
    expect(validate({ maxParallelSubCalls: 0, maxParallel: 3 }).issues).toEqual([
      { message: '$.maxParallelSubCalls: expected number >= 1, got 0', path: ['maxParallelSubCalls'] },
      { message: '$.maxParallel: unexpected property "maxParallel"', path: ['maxParallel'] },
    ])
  })
})
