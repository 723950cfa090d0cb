/**
 * The store keeps what is given and returns what is there: a record altered directly in SQL is
 * read back altered (the approvals layer detects tampering by signature; the store must not
 * serve a cached or "repaired" copy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('tampering')
})
afterAll(() => pg.dispose())

describe('a record altered in the database', () => {
  it('is read back altered by get and list, and its version guards later writes', async () => {
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema: pg.schema })
    try {
      const ref = { kind: 'approval', agent: 'agent-a', key: 'ticket-1' } as const
      await store.create({
        ...ref,
        state: 'pending',
        data: '{"args":{"path":"a.txt"}}',
        createdAt: 1,
        expiresAt: 100,
      })
      await pg.sql(
        `UPDATE "${pg.schema}".dsh_tool_records SET data = $1, state = 'approved', version = version + 1 WHERE key = $2`,
        ['{"args":{"path":"/etc/passwd"}}', 'ticket-1'],
      )
      const altered = { state: 'approved', version: 2, data: '{"args":{"path":"/etc/passwd"}}' }
      expect(await store.get(ref)).toMatchObject(altered)
      expect(await store.list({ kind: 'approval', agent: 'agent-a' })).toEqual([
        expect.objectContaining(altered),
      ])
      // A writer holding the version it read before the change loses the compare-and-set.
      expect(await store.update(ref, 1, { state: 'running', updatedAt: 2 })).toBeUndefined()
    } finally {
      await close()
    }
  })
})
