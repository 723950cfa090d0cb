import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('basics')
})
afterAll(() => pg.dispose())

const base = {
  kind: 'approval',
  agent: 'a',
  state: 'pending',
  data: '{"x":1}',
  createdAt: 1_000,
  expiresAt: 5_000,
} as const

describe('store basics', () => {
  it('creates, reads, compares-and-sets, lists and sweeps', async () => {
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema: pg.schema })
    try {
      const created = await store.create({ ...base, key: 'k1' })
      expect(created).toEqual({ ...base, key: 'k1', version: 1, updatedAt: 1_000 })
      expect(await store.create({ ...base, key: 'k1' })).toBeUndefined()
      const claimed = await store.update({ kind: 'approval', agent: 'a', key: 'k1' }, 1, {
        state: 'running',
        lease: { owner: 'p1', until: 9_000 },
        updatedAt: 2_000,
      })
      expect(claimed).toMatchObject({
        version: 2,
        state: 'running',
        lease: { owner: 'p1', until: 9_000 },
        data: '{"x":1}',
      })
      expect(
        await store.update({ kind: 'approval', agent: 'a', key: 'k1' }, 1, { state: 'x', updatedAt: 3 }),
      ).toBeUndefined()
      const done = await store.update({ kind: 'approval', agent: 'a', key: 'k1' }, 2, {
        state: 'done',
        lease: null,
        updatedAt: 3_000,
        expiresAt: 4_000,
      })
      expect(done).toMatchObject({ version: 3, state: 'done', expiresAt: 4_000, updatedAt: 3_000 })
      expect(done?.lease).toBeUndefined()
      expect(await store.get({ kind: 'approval', agent: 'b', key: 'k1' })).toBeUndefined()
      await store.create({ ...base, key: 'k0', createdAt: 1_000 })
      expect((await store.list({ kind: 'approval', agent: 'a' })).map((r) => r.key)).toEqual(['k0', 'k1'])
      expect(await store.sweep(4_500)).toBe(1)
      expect((await store.list({ kind: 'approval' })).map((r) => r.key)).toEqual(['k0'])
    } finally {
      await close()
    }
  })
})
