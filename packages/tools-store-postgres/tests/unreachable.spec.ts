/**
 * Failure modes end as StoreUnavailableError naming `postgres host:port/db`, never the password,
 * and bounded by the configured timeouts: a refused port, a server that accepts and never
 * answers, refused credentials, a statement that outlives statementTimeoutMs, and idle
 * connections cut under the pool.
 */
import { isToolsError, StoreUnavailableError } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'
import { closedPort, silentServer, startTcpProxy } from './support/tcp-proxy'

const PASSWORD = 'Sup3r-s3cret-pa55word'
const ref = { kind: 'approval', agent: 'a', key: 'k' } as const

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('unreachable')
})
afterAll(() => pg.dispose())

async function rejection(promise: Promise<unknown>): Promise<StoreUnavailableError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(StoreUnavailableError)
  expect(isToolsError(error) && error.code).toBe('STORE_UNAVAILABLE')
  return error as StoreUnavailableError
}

describe('an unreachable server', () => {
  it('a refused port rejects every method with STORE_UNAVAILABLE naming the server, not the password', async () => {
    const port = await closedPort()
    const { store, close } = await openStore({
      connectionString: `postgres://dsh:${PASSWORD}@127.0.0.1:${port}/tools`,
    })
    try {
      expect(store.label).toBe(`postgres 127.0.0.1:${port}/tools`)
      const now = 1
      const calls = [
        store.create({ ...ref, state: 'pending', data: '{}', createdAt: now, expiresAt: now }),
        store.get(ref),
        store.update(ref, 1, { state: 'x', updatedAt: now }),
        store.list({ kind: 'approval' }),
        store.sweep(now),
      ]
      for (const call of calls) {
        const error = await rejection(call)
        expect(error.message).toContain(`postgres 127.0.0.1:${port}/tools`)
        expect(error.message).toContain('ECONNREFUSED')
        expect(error.message).not.toContain(PASSWORD)
      }
    } finally {
      await close()
    }
  })

  it('a server that accepts and never answers fails within connectTimeoutMs', async () => {
    const silent = await silentServer()
    const { store, close } = await openStore({
      connectionString: `postgres://dsh:${PASSWORD}@127.0.0.1:${silent.port}/tools`,
      connectTimeoutMs: 200,
    })
    try {
      // The test's own timeout (30 s) is the generous bound; the store gives up after 200 ms.
      const error = await rejection(store.get(ref))
      expect(error.message).toMatch(/timeout/i)
      expect(error.message).not.toContain(PASSWORD)
    } finally {
      await close()
      await silent.close()
    }
  })

  it('invalid config is refused before anything connects', async () => {
    await expect(openStore({ connectionString: '' })).rejects.toThrow(/connectionString/)
    await expect(
      openStore({ connectionString: 'postgres://x@127.0.0.1/db', schema: 'bad-name"; drop' }),
    ).rejects.toThrow(/schema/)
  })
})

describe('a reachable server refusing work', () => {
  it('a statement past statementTimeoutMs rejects, and the store works again after', async () => {
    const { store, close } = await openStore({
      connectionString: pg.connectionString,
      schema: pg.schema,
      statementTimeoutMs: 300,
    })
    try {
      await store.create({ ...ref, state: 'pending', data: '{}', createdAt: 1, expiresAt: 10 })
      // Another session holds the row: the compare-and-set waits on its lock past the bound.
      const holder = await pg.sql('SELECT 1') // warm the admin pool before borrowing a client
      expect(holder).toHaveLength(1)
      const { default: pgDriver } = await import('pg')
      const locker = new pgDriver.Client({ connectionString: pg.connectionString })
      await locker.connect()
      try {
        await locker.query('BEGIN')
        await locker.query(`SELECT 1 FROM "${pg.schema}".dsh_tool_records WHERE key = 'k' FOR UPDATE`)
        const error = await rejection(store.update(ref, 1, { state: 'approved', updatedAt: 2 }))
        expect(error.message).toContain(store.label)
        await locker.query('ROLLBACK')
      } finally {
        await locker.end()
      }
      expect(await store.update(ref, 1, { state: 'approved', updatedAt: 3 })).toMatchObject({ version: 2 })
    } finally {
      await close()
    }
  })

  it('a server that stops answering mid-connection fails within statementTimeoutMs + 1 s, then recovers', async () => {
    // The server never sees the statement, so only the store's own deadline can end the wait.
    const proxy = await startTcpProxy(pg.connectionString)
    const { store, close } = await openStore({
      connectionString: proxy.connectionString,
      schema: pg.schema,
      statementTimeoutMs: 200,
    })
    try {
      expect(await store.get(ref)).toMatchObject({ key: 'k' })
      proxy.silence(true)
      const error = await rejection(store.get(ref))
      expect(error.message).toContain(`${store.label} unavailable: get failed: no answer within 1200 ms`)
      proxy.silence(false)
      // The silent connection was dropped, not handed to the next statement.
      expect(await store.get(ref)).toMatchObject({ key: 'k' })
    } finally {
      await close()
      await proxy.close()
    }
  })

  it('connections cut under an idle pool raise no unhandled error, and the next call reconnects', async () => {
    const proxy = await startTcpProxy(pg.connectionString)
    const { store, close } = await openStore({ connectionString: proxy.connectionString, schema: pg.schema })
    try {
      expect(await store.get(ref)).toMatchObject({ key: 'k' })
      expect(proxy.openConnections()).toBeGreaterThan(0)
      proxy.cut()
      // Give the idle clients' sockets their 'close'/'error' events: an unhandled one fails the run.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await store.get(ref)).toMatchObject({ key: 'k' })
    } finally {
      await close()
      await proxy.close()
    }
  })
})

describe('refused credentials', () => {
  // PGlite has no authentication: this runs against a real server (always in CI).
  it('a wrong password rejects with STORE_UNAVAILABLE and the message does not echo it', async (test) => {
    if (pg.source === 'pglite') test.skip()
    const url = new URL(pg.connectionString)
    url.password = PASSWORD
    const { store, close } = await openStore({ connectionString: url.toString(), schema: pg.schema })
    try {
      const error = await rejection(store.get(ref))
      expect(error.message).toMatch(/authentication failed/)
      expect(error.message).not.toContain(PASSWORD)
    } finally {
      await close()
    }
  })
})
