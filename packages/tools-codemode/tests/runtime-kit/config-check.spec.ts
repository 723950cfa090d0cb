import { describe, expect, it } from 'vitest'
import {
  checkOptions,
  choiceOption,
  createConfigSchema,
  integerOption,
  MAX_TIMER_MS,
  type OptionRules,
} from '../../src/runtime-kit/index'

interface Config {
  readonly computeMs: number
  readonly warmWorkers: number
  readonly engine: string
}
const defaults: Config = Object.freeze({ computeMs: 1000, warmWorkers: 1, engine: 'a' })
const rules: OptionRules<Config> = {
  computeMs: integerOption(1, MAX_TIMER_MS),
  warmWorkers: integerOption(0, 64),
  engine: choiceOption(['a', 'b']),
}
const check = (input: unknown) => checkOptions(input, defaults, rules)

describe('checkOptions', () => {
  it('resolves undefined and null to the defaults, and fills in missing or undefined options', () => {
    expect(check(undefined)).toEqual({ ok: true, value: defaults })
    expect(check(null)).toEqual({ ok: true, value: defaults })
    expect(check({ warmWorkers: 0, computeMs: undefined })).toEqual({
      ok: true,
      value: { ...defaults, warmWorkers: 0 },
    })
  })

  it('accepts both bounds and refuses one past each, with the same wording for every key', () => {
    expect(check({ computeMs: MAX_TIMER_MS }).ok).toBe(true)
    expect(check({ warmWorkers: 0 }).ok).toBe(true)
    expect(check({ computeMs: MAX_TIMER_MS + 1 })).toEqual({
      ok: false,
      issues: [`computeMs must be an integer between 1 and ${MAX_TIMER_MS}`],
    })
    expect(check({ warmWorkers: -1 })).toEqual({
      ok: false,
      issues: ['warmWorkers must be an integer between 0 and 64'],
    })
  })

  it('refuses every value that is not an integer number', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, '5', 5n, true, null, {}, [1]]) {
      expect(check({ warmWorkers: bad }).ok).toBe(false)
    }
  })

  it('lists every problem at once: unknown keys, bad numbers and bad choices', () => {
    const result = check({ computeMs: 0, warmWorkers: 1.5, engine: 'c', colour: 'red' })
    expect(result).toEqual({
      ok: false,
      issues: [
        'computeMs must be an integer between 1 and 2147483647',
        'warmWorkers must be an integer between 0 and 64',
        'engine must be one of "a", "b"',
        'unknown option "colour"',
      ],
    })
  })

  it('reads own keys only: an inherited option is ignored and an own __proto__ is unknown', () => {
    const inherited = Object.create({ warmWorkers: 'not even a number' }) as object
    expect(check(inherited)).toEqual({ ok: true, value: defaults })
    expect(check(JSON.parse('{"__proto__": {"warmWorkers": 3}}'))).toEqual({
      ok: false,
      issues: ['unknown option "__proto__"'],
    })
    expect(check({ toString: 1 })).toMatchObject({ ok: false })
  })

  it('refuses a non-object config', () => {
    for (const bad of [1, 'x', true, [], () => {}]) {
      expect(check(bad)).toEqual({ ok: false, issues: ['config must be an object'] })
    }
  })

  it('returns a frozen value', () => {
    const result = check({ warmWorkers: 2 })
    expect(result.ok && Object.isFrozen(result.value)).toBe(true)
  })

  it('refuses inverted or fractional bounds when a rule is declared', () => {
    expect(() => integerOption(5, 1)).toThrow(RangeError)
    expect(() => integerOption(0.5, 1)).toThrow(RangeError)
  })
})

describe('createConfigSchema', () => {
  const schema = createConfigSchema<Partial<Config>, Config>('@dsh/example', check)

  it('validates as a Standard Schema: the value, or one issue per problem', () => {
    expect(schema['~standard'].vendor).toBe('@dsh/example')
    expect(schema['~standard'].validate({ warmWorkers: 3 })).toEqual({
      value: { ...defaults, warmWorkers: 3 },
    })
    expect(schema['~standard'].validate({ warmWorkers: 99, x: 1 })).toEqual({
      issues: [
        { message: 'warmWorkers must be an integer between 0 and 64' },
        { message: 'unknown option "x"' },
      ],
    })
    expect(Object.isFrozen(schema) && Object.isFrozen(schema['~standard'])).toBe(true)
  })
})
