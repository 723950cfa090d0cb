import { describe, expect, it } from 'vitest'
import { checkConfig, configSchema, MAX_TIMER_MS } from '../../src/runtime-kit/index'

const schema = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    computeMs: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS, default: 1000 },
    warmWorkers: { type: 'integer', minimum: 0, maximum: 64, default: 1 },
    engine: { type: 'string', enum: ['a', 'b'], default: 'a' },
  },
})
const defaults = { computeMs: 1000, warmWorkers: 1, engine: 'a' }

describe('checkConfig', () => {
  it('resolves undefined and null to the defaults, and fills in missing or undefined options', () => {
    expect(checkConfig(schema, undefined)).toEqual({ ok: true, value: defaults })
    expect(checkConfig(schema, null)).toEqual({ ok: true, value: defaults })
    const check = checkConfig(schema, { warmWorkers: 0, computeMs: undefined })
    expect(check).toEqual({ ok: true, value: { ...defaults, warmWorkers: 0 } })
    expect(check.ok && Object.isFrozen(check.value)).toBe(true)
  })

  it('lists every problem, worded like argument errors', () => {
    expect(checkConfig(schema, { warmWorkers: 99, engine: 'c', x: 1 })).toEqual({
      ok: false,
      issues: [
        '$.warmWorkers: expected number <= 64, got 99',
        '$.engine: expected one of "a", "b"',
        '$.x: unexpected property "x"',
      ],
    })
    expect(checkConfig(schema, 5)).toEqual({ ok: false, issues: ['$: expected object, got number'] })
    expect(checkConfig(schema, { computeMs: MAX_TIMER_MS + 1 }).ok).toBe(false)
  })
})
