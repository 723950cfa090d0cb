/**
 * Input PostgreSQL text cannot keep exactly (U+0000, a lone surrogate) or bigint columns cannot
 * hold is refused with a TypeError naming the field, before anything is written; reads at such
 * an address find nothing; fractional bounds behave as in the memory store.
 */
import { StoreUnavailableError } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OpenedPostgresStore, openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'

let pg: TestPostgres
let opened: OpenedPostgresStore
beforeAll(async () => {
  pg = await testPostgres('bad_input')
  opened = await openStore({ connectionString: pg.connectionString, schema: pg.schema })
})
afterAll(async () => {
  await opened?.close()
  await pg.dispose()
})

const record = {
  kind: 'approval',
  agent: 'a',
  key: 'k',
  state: 'pending',
  data: '{}',
  createdAt: 1,
  expiresAt: 5,
} as const

describe('input the store cannot keep exactly', () => {
  it.each([
    ['data with a raw lone surrogate', { data: '{"s":"\ud800"}' }, /data holds U\+0000 or a lone surrogate/],
    ['a key with U+0000', { key: 'a\u0000b' }, /key holds U\+0000/],
    ['an agent with a lone low surrogate', { agent: '\udc00' }, /agent holds/],
    ['a fractional createdAt', { createdAt: 1.5 }, /createdAt must be a safe integer/],
    ['an infinite expiresAt', { expiresAt: Number.POSITIVE_INFINITY }, /expiresAt must be a safe integer/],
  ])('create with %s is a TypeError and writes nothing', async (_what, change, message) => {
    const { store } = opened
    const bad = { ...record, key: `bad-${Math.random()}`, ...change }
    const error = await store.create(bad).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).not.toBeInstanceOf(StoreUnavailableError)
    expect((error as Error).message).toMatch(message)
    expect(await store.list({ kind: 'approval', agent: bad.agent })).toEqual([])
  })

  it('update with unstorable data is a TypeError and leaves the record as it was', async () => {
    const { store } = opened
    const created = await store.create({ ...record, key: 'u' })
    await expect(
      store.update(created!, 1, { state: 'done', data: '"\udfff"', updatedAt: 2 }),
    ).rejects.toThrow(TypeError)
    await expect(store.update(created!, 1, { state: 'done', updatedAt: 2.5 })).rejects.toThrow(/updatedAt/)
    expect(await store.get(created!)).toEqual(created)
    // Astral characters are whole surrogate pairs: stored exactly.
    expect((await store.update(created!, 1, { state: 'done', data: '"😀"', updatedAt: 2 }))?.data).toBe(
      '"😀"',
    )
  })

  it('reads at an address no record can have find nothing', async () => {
    const { store } = opened
    expect(await store.get({ kind: 'approval', agent: 'a', key: 'k\u0000' })).toBeUndefined()
    expect(await store.list({ kind: 'approval', agent: '\ud800' })).toEqual([])
    expect(
      await store.update({ kind: 'approval', agent: 'a', key: '\u0000' }, 1, { state: 'x', updatedAt: 1 }),
    ).toBeUndefined()
  })

  it('fractional and unbounded limits and sweep times behave as in the memory store', async () => {
    const { store } = opened
    const agent = 'bounds'
    for (const key of ['a', 'b', 'c'])
      await store.create({ ...record, agent, key, expiresAt: key === 'a' ? 1 : 3 })
    expect(await store.list({ kind: 'approval', agent, limit: 1.7 })).toHaveLength(1)
    expect(await store.list({ kind: 'approval', agent, limit: -2 })).toHaveLength(0)
    expect(await store.sweep(0.5)).toBe(0)
    expect(await store.sweep(1.5)).toBeGreaterThanOrEqual(1) // expiresAt 1 < 1.5
    expect((await store.list({ kind: 'approval', agent })).map((r) => r.key)).toEqual(['b', 'c'])
    expect(await store.sweep(Number.NEGATIVE_INFINITY)).toBe(0)
    expect(await store.sweep(Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(2)
    await expect(store.sweep(Number.NaN)).rejects.toThrow(TypeError)
  })
})
