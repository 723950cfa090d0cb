import { describe, expect, it } from 'vitest'
import { BASH_CONFIG_DEFAULTS, Config, resolveBashConfig } from '../src/config'
import { DEFAULT_ENV_ALLOW_LIST } from '../src/environment'

describe('bash config', () => {
  it('undefined is the empty config and gets every default', () => {
    const result = resolveBashConfig(undefined)
    expect(result.issues).toBeUndefined()
    expect(result).toMatchObject({
      value: {
        ...BASH_CONFIG_DEFAULTS,
        workdir: process.cwd(),
        envAllowList: DEFAULT_ENV_ALLOW_LIST,
        env: {},
      },
    })
  })

  it('resolving a resolved config yields the same config', () => {
    const once = resolveBashConfig({ workdir: 'sub', maxTimeoutMs: 10, defaultTimeoutMs: 5 })
    if (once.issues) throw new Error('unexpected issues')
    expect(resolveBashConfig(once.value)).toEqual(once)
  })

  it('rejects unknown keys, bad budgets and a default above the max, with paths', () => {
    const result = Config['~standard'].validate({
      bogus: 1,
      maxTimeoutMs: 10,
      defaultTimeoutMs: 20,
      killGraceMs: -1,
    })
    expect(result.issues).toEqual([
      { message: '$.killGraceMs: expected number >= 0, got -1', path: ['killGraceMs'] },
      { message: '$.bogus: unexpected property "bogus"', path: ['bogus'] },
    ])
    // Rules across fields run once the fields themselves are valid.
    expect(Config['~standard'].validate({ maxTimeoutMs: 10, defaultTimeoutMs: 20 }).issues).toEqual([
      { message: '$.defaultTimeoutMs: must not exceed maxTimeoutMs (10)', path: ['defaultTimeoutMs'] },
    ])
  })

  it('rejects a bad env map and allow-list', () => {
    const result = resolveBashConfig({ env: { A: 1 }, envAllowList: [''] })
    expect(result.issues?.map((i) => i.path?.[0])).toEqual(['envAllowList', 'env'])
  })
})
