/**
 * A process SIGKILLed inside a transaction leaves consistent data: its half-done writes are
 * rolled back, its locks released (the next compare-and-set neither waits nor fails), and a
 * migration it started is redone whole by the next store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORE_SCHEMA_VERSION } from '../src/index'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'
import { collect, spawnFixture, waitForLine } from './support/spawn-fixture'

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('crash')
})
afterAll(() => pg.dispose())

async function killInside(schema: string, mode: 'rows' | 'migration'): Promise<void> {
  const child = await spawnFixture('hold-transaction.ts', [pg.connectionString, schema, mode])
  const exited = collect(child)
  try {
    await waitForLine(child, 'holding')
  } finally {
    child.kill('SIGKILL')
  }
  expect((await exited).code).toBeNull()
}

describe('a process killed inside a transaction', () => {
  it('rows it rewrote keep their committed state, and their locks are released', {
    timeout: 60_000,
  }, async () => {
    // statementTimeoutMs bounds a wait on a lock the dead process would still hold.
    const { store, close } = await openStore({
      connectionString: pg.connectionString,
      schema: pg.schema,
      statementTimeoutMs: 5_000,
    })
    try {
      const refs = ['a', 'b', 'c'].map((key) => ({ kind: 'approval', agent: 'crash', key }) as const)
      for (const ref of refs)
        await store.create({
          ...ref,
          state: 'approved',
          data: '{"whole":true}',
          createdAt: 1,
          expiresAt: 9e12,
        })
      await killInside(pg.schema, 'rows')
      for (const ref of refs) {
        expect(await store.get(ref)).toMatchObject({ state: 'approved', version: 1, data: '{"whole":true}' })
        const claimed = await store.update(ref, 1, {
          state: 'running',
          lease: { owner: 'next', until: 2 },
          updatedAt: 2,
        })
        expect(claimed).toMatchObject({ state: 'running', version: 2 })
      }
    } finally {
      await close()
    }
  })

  it('a migration killed half way is redone whole by the next store', { timeout: 60_000 }, async () => {
    const schema = pg.newSchema()
    await killInside(schema, 'migration')
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema })
    try {
      await store.ready()
      const rows = await pg.sql<{ value: string }>(
        `SELECT value FROM "${schema}".dsh_tool_store_meta WHERE name = 'schema_version'`,
      )
      expect(rows).toEqual([{ value: String(STORE_SCHEMA_VERSION) }])
      const ref = { kind: 'run', agent: '', key: 'r' } as const
      expect(
        await store.create({
          ...ref,
          state: 'running',
          data: '[]',
          lease: { owner: 'p', until: 3 },
          createdAt: 1,
          expiresAt: 9,
        }),
      ).toMatchObject({ lease: { owner: 'p', until: 3 } })
    } finally {
      await close()
    }
  })
})
