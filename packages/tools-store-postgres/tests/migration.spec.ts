/**
 * The schema is versioned and migrates itself at start under an advisory lock: a version-1
 * layout gains its lease columns, stores starting at once on a fresh schema all come up, and a
 * layout newer than the package is refused, not written to.
 */
import { StoreUnavailableError } from '@dsh/tools-core'
import pgDriver from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORE_SCHEMA_VERSION } from '../src/index'
import { migrateStoreSchema, storeTables } from '../src/store-schema'
import { seedLegacySchema } from './support/legacy-schema'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('migration')
})
afterAll(() => pg.dispose())

const record = {
  kind: 'approval',
  agent: 'a',
  key: 'old',
  state: 'approved',
  data: '{"n":1}',
  createdAt: 1,
  expiresAt: 9,
} as const

async function schemaVersion(schema: string): Promise<string | undefined> {
  const rows = await pg.sql<{ value: string }>(
    `SELECT value FROM "${schema}".dsh_tool_store_meta WHERE name = 'schema_version'`,
  )
  return rows[0]?.value
}

async function columns(schema: string): Promise<string[]> {
  const rows = await pg.sql<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = $1 AND table_name = 'dsh_tool_records' ORDER BY column_name`,
    [schema],
  )
  return rows.map((row) => row.column_name)
}

describe('schema migration', () => {
  it('a version-1 layout is migrated at start: records kept, leases usable', async () => {
    const schema = pg.newSchema()
    await seedLegacySchema(pg.connectionString, schema, [record])
    expect(await schemaVersion(schema)).toBe('1')
    expect(await columns(schema)).not.toContain('lease_owner')
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema })
    try {
      expect(await schemaVersion(schema)).toBe(String(STORE_SCHEMA_VERSION))
      expect(await columns(schema)).toEqual(expect.arrayContaining(['lease_owner', 'lease_until']))
      expect(await store.get(record)).toEqual({ ...record, version: 1, updatedAt: 1 })
      const claimed = await store.update(record, 1, {
        state: 'running',
        lease: { owner: 'p', until: 5 },
        updatedAt: 2,
      })
      expect(claimed?.lease).toEqual({ owner: 'p', until: 5 })
    } finally {
      await close()
    }
  })

  it('eight stores starting at once on an empty schema all come up on one layout', async () => {
    const schema = pg.newSchema()
    // Pools connected beforehand, so the eight migrations really start together.
    const pools = Array.from(
      { length: 8 },
      () => new pgDriver.Pool({ connectionString: pg.connectionString, max: 1 }),
    )
    await Promise.all(pools.map(async (pool) => (await pool.connect()).release()))
    const opened = await Promise.all(pools.map((pool) => openStore({ pool, schema })))
    try {
      // Each start prepared (or found) the tables; none failed on a half-made layout.
      await Promise.all(opened.map(({ store }) => store.ready()))
      const created = await Promise.all(
        opened.map(({ store }, i) => store.create({ ...record, key: `k${i}` })),
      )
      expect(created.every((r) => r?.version === 1)).toBe(true)
      expect(await schemaVersion(schema)).toBe(String(STORE_SCHEMA_VERSION))
    } finally {
      await Promise.all(opened.map(({ close }) => close()))
      await Promise.all(pools.map((pool) => pool.end()))
    }
  })

  it('eight migrations started together on an empty schema all succeed first time (advisory lock)', async () => {
    const tables = storeTables(pg.newSchema())
    const clients = Array.from(
      { length: 8 },
      () => new pgDriver.Client({ connectionString: pg.connectionString }),
    )
    await Promise.all(clients.map((client) => client.connect()))
    try {
      const outcomes = await Promise.allSettled(
        clients.map(async (client) => {
          await client.query('BEGIN')
          try {
            await migrateStoreSchema(client, tables)
            await client.query('COMMIT')
          } catch (error) {
            await client.query('ROLLBACK')
            throw error
          }
        }),
      )
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
      expect(await schemaVersion(tables.schema)).toBe(String(STORE_SCHEMA_VERSION))
    } finally {
      await Promise.all(clients.map((client) => client.end()))
    }
  })

  it('a layout newer than this package is refused with STORE_UNAVAILABLE and left untouched', async () => {
    const schema = pg.newSchema()
    await seedLegacySchema(pg.connectionString, schema, [record])
    await pg.sql(`UPDATE "${schema}".dsh_tool_store_meta SET value = '99' WHERE name = 'schema_version'`)
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema })
    try {
      const error = await store.get(record).catch((reason: unknown) => reason)
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect((error as Error).message).toMatch(/schema version 99, newer than this package's/)
      expect(await columns(schema)).not.toContain('lease_owner')
    } finally {
      await close()
    }
  })
})
