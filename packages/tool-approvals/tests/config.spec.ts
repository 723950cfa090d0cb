// Every rule of the plugin config (SPEC §13.2): the key's length in bytes (a string's UTF-8
// bytes, or the bytes given), the duration bounds, the defaults, unknown keys; the shared
// wording; and the same refusal when the plugin is constructed without cordis' validation.
import { Context } from '@deepseek-ai/cordis'
import { MemoryToolStore } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LEASE_MS, DEFAULT_TTL_MS, validateConfig } from '../src/config'
import ToolApprovals, { Config } from '../src/index'
import { KEY } from './fixtures/approvals-runtime'

/** The accepted config (the test fails with the issues otherwise). */
function accepted(value: unknown) {
  const checked = validateConfig(value)
  if (checked.issues !== undefined) throw new Error(checked.issues.map((issue) => issue.message).join('; '))
  return checked.value
}

const messages = (value: unknown) => validateConfig(value).issues?.map((issue) => issue.message)

describe('config', () => {
  it('fills the defaults and gives the key as its bytes (a copy)', () => {
    const bytes = new Uint8Array(32).fill(7)
    const resolved = accepted({ signingKey: bytes })
    expect(resolved).toEqual({
      signingKey: Buffer.from(bytes),
      ttlMs: DEFAULT_TTL_MS,
      leaseMs: DEFAULT_LEASE_MS,
    })
    bytes.fill(0)
    expect(resolved.signingKey[0]).toBe(7)
    expect(accepted({ signingKey: KEY, ttlMs: 1, leaseMs: 2 ** 31 - 1 })).toEqual({
      signingKey: Buffer.from(KEY, 'utf8'),
      ttlMs: 1,
      leaseMs: 2 ** 31 - 1,
    })
  })

  it('a resolved config validates to itself', () => {
    const resolved = accepted({ signingKey: KEY })
    expect(accepted(resolved)).toEqual(resolved)
  })

  it('counts a string key in UTF-8 bytes, a byte key in bytes: 32 at least', () => {
    // 16 two-byte characters are 32 bytes; 31 ASCII characters are 31.
    expect(accepted({ signingKey: 'é'.repeat(16) }).signingKey).toHaveLength(32)
    expect(messages({ signingKey: 'x'.repeat(31) })).toEqual([
      '$.signingKey: must be at least 32 bytes (got 31); use e.g. 32 random bytes, base64-encoded',
    ])
    expect(messages({ signingKey: new Uint8Array(31) })).toEqual([
      '$.signingKey: must be at least 32 bytes (got 31); use e.g. 32 random bytes, base64-encoded',
    ])
  })

  it('refuses a missing or non-key signingKey, bad durations and unknown keys, each by path', () => {
    expect(messages(undefined)).toEqual(['$: missing required property "signingKey"'])
    const checked = validateConfig({ signingKey: 42, ttlMs: 0, leaseMs: 1.5, tll: 1 })
    expect(checked.issues?.map((issue) => issue.path?.join('.')).sort()).toEqual(
      ['leaseMs', 'signingKey', 'tll', 'ttlMs'].sort(),
    )
    expect(messages({ signingKey: 42 })).toEqual([
      '$.signingKey: expected the HMAC-SHA256 key of every decision: a string (its UTF-8 bytes) or a Uint8Array, of at least 32 bytes, got number',
    ])
    expect(messages({ signingKey: KEY, ttlMs: 2 ** 31 })).toEqual([
      '$.ttlMs: expected number <= 2147483647, got 2147483648',
    ])
  })

  it('the JSON Schema of the config is the one the README table is written from', () => {
    const schema = Config['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
    expect(schema).toMatchObject({ required: ['signingKey'], additionalProperties: false })
  })

  it('cordis refuses a short key before the plugin starts; direct construction throws the same', async () => {
    const ctx = new Context()
    await ctx.plugin(MemoryToolStore)
    await expect(async () => ctx.plugin(ToolApprovals, { signingKey: 'short' })).rejects.toThrow(
      /at least 32 bytes \(got 5\)/,
    )
    expect(() => new ToolApprovals(ctx, { signingKey: 'short' })).toThrow(
      /invalid config: \$\.signingKey: must be at least 32 bytes \(got 5\)/,
    )
    await ctx.fiber.dispose()
  })
})
