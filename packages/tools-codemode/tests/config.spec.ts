import { describe, expect, it } from 'vitest'
import { CodeModeConfigSchema } from '../src/config'

const validate = (input: unknown) => CodeModeConfigSchema['~standard'].validate(input)

describe('CodeModeConfigSchema', () => {
  it('defaults maxParallelSubCalls to 10', () => {
    expect(validate(undefined)).toEqual({ value: { maxParallelSubCalls: 10 } })
    expect(validate({})).toEqual({ value: { maxParallelSubCalls: 10 } })
  })

  it('accepts any integer ≥ 1 (1 = serial)', () => {
    expect(validate({ maxParallelSubCalls: 1 })).toEqual({ value: { maxParallelSubCalls: 1 } })
    expect(validate({ maxParallelSubCalls: 64 })).toEqual({ value: { maxParallelSubCalls: 64 } })
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4', null])(
    'rejects maxParallelSubCalls %s',
    (bad) => {
      const result = validate({ maxParallelSubCalls: bad })
      expect(result).toHaveProperty('issues')
    },
  )

  it('rejects unknown keys and non-objects', () => {
    expect(validate({ maxParallel: 3 })).toHaveProperty('issues')
    expect(validate(5)).toHaveProperty('issues')
    expect(validate([])).toHaveProperty('issues')
  })
})
