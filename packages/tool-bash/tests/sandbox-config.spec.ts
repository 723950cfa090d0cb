import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveBashConfig } from '../src/config'

const sandboxOf = (sandbox: unknown) => resolveBashConfig({ sandbox })
/** The resolved sandbox settings of a valid config. */
const settings = (sandbox: unknown) => {
  const result = sandboxOf(sandbox)
  if (result.issues) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`)
  return result.value.sandbox
}

describe('sandbox config', () => {
  it('is on by default: refuse when unavailable, no network, the home directory hidden', () => {
    expect(settings(undefined)).toEqual({
      enabled: true,
      fallback: 'refuse',
      network: 'none',
      allowWrite: [],
      denyRead: [homedir()],
      maxScanEntries: 200_000,
    })
  })

  it('false opts out, true is the default, an object overrides field by field', () => {
    expect(settings(false).enabled).toBe(false)
    expect(settings(true)).toEqual(settings(undefined))
    expect(settings({ enabled: false }).enabled).toBe(false)
    expect(settings({ fallback: 'unsandboxed', network: 'host' })).toMatchObject({
      enabled: true,
      fallback: 'unsandboxed',
      network: 'host',
    })
  })

  it('paths are made absolute; a given denyRead replaces the default', () => {
    const sandbox = settings({ allowWrite: ['out'], denyRead: [] })
    expect(sandbox.allowWrite).toEqual([resolve(process.cwd(), 'out')])
    expect(sandbox.denyRead).toEqual([])
  })

  it('rejects unknown keys and wrong values, each with its path', () => {
    const result = sandboxOf({
      fallback: 'maybe',
      network: 'some',
      allowWrite: [''],
      denyRead: 'x',
      maxScanEntries: 0,
      extra: 1,
    })
    expect(result.issues?.map((issue) => issue.path?.join('.'))).toEqual([
      'sandbox.fallback',
      'sandbox.network',
      'sandbox.allowWrite.0',
      'sandbox.denyRead',
      'sandbox.maxScanEntries',
      'sandbox.extra',
    ])
    expect(sandboxOf({ network: 'some' }).issues).toEqual([
      { message: '$.sandbox.network: expected one of "none", "host"', path: ['sandbox', 'network'] },
    ])
    const [issue, ...more] = sandboxOf('yes').issues ?? []
    expect(more).toEqual([])
    expect(issue?.path).toEqual(['sandbox'])
    expect(issue?.message).toMatch(
      /^\$\.sandbox: expected at least one of 2 anyOf branches to match, got none/,
    )
  })

  it('resolving a resolved config yields the same sandbox settings', () => {
    const once = resolveBashConfig({ sandbox: { allowWrite: ['/a'], network: 'host' } })
    if (once.issues) throw new Error('unexpected issues')
    expect(resolveBashConfig(once.value)).toEqual(once)
  })
})
