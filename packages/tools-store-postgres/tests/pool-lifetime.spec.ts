/**
 * Who ends the pool: a pool the store opened from a connection string ends with the plugin; a
 * pool the caller passed is borrowed — still open and usable after the plugin is disposed, with
 * no listener of the store's left on it.
 */
import pgDriver from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy'

let pg: TestPostgres
let proxy: TcpProxy
beforeAll(async () => {
  pg = await testPostgres('pool_lifetime')
  // Connections are counted at a relay in front of the server.
  proxy = await startTcpProxy(pg.connectionString)
})
afterAll(async () => {
  await proxy.close()
  await pg.dispose()
})

const ref = { kind: 'outcome', agent: '', key: 'k' } as const

async function settled(): Promise<void> {
  // Closing sockets reach the relay on a later turn of the event loop.
  for (let i = 0; i < 50 && proxy.openConnections() > 0; i++) await new Promise((r) => setTimeout(r, 10))
}

describe('pool lifetime', () => {
  it('the pool opened from connectionString is ended when the plugin is disposed', async () => {
    const { store, close } = await openStore({ connectionString: proxy.connectionString, schema: pg.schema })
    expect(await store.get(ref)).toBeUndefined()
    expect(proxy.openConnections()).toBeGreaterThan(0)
    await close()
    await settled()
    expect(proxy.openConnections()).toBe(0)
  })

  it('a pool the caller passed stays open and usable after dispose, with no listener left behind', async () => {
    const pool = new pgDriver.Pool({ connectionString: proxy.connectionString, max: 2 })
    const listeners = pool.listenerCount('error')
    try {
      const { store, close } = await openStore({ pool, schema: pg.schema })
      expect(store.label).toBe(
        `postgres 127.0.0.1:${new URL(proxy.connectionString).port}/${new URL(pg.connectionString).pathname.slice(1)}`,
      )
      await store.create({ ...ref, state: 'done', data: '1', createdAt: 1, expiresAt: 2 })
      await close()
      expect(pool.ending).toBe(false)
      expect(pool.listenerCount('error')).toBe(listeners)
      expect(proxy.openConnections()).toBeGreaterThan(0)
      const rows = await pool.query(`SELECT data FROM "${pg.schema}".dsh_tool_records WHERE key = 'k'`)
      expect(rows.rows).toEqual([{ data: '1' }])
    } finally {
      await pool.end()
    }
  })

  it('a config with both a pool and pool settings is refused', async () => {
    const pool = new pgDriver.Pool({ connectionString: proxy.connectionString })
    try {
      await expect(openStore({ pool, connectTimeoutMs: 5 } as never)).rejects.toThrow(
        /connectTimeoutMs.*set it on your own pool/,
      )
      await expect(openStore({ pool, connectionString: proxy.connectionString } as never)).rejects.toThrow(
        /exactly one of connectionString and pool/,
      )
    } finally {
      await pool.end()
    }
  })
})
