/**
 * No hanging handles: a program that used the store — reachable or not, disposed or not — ends
 * by itself when its work is done (the pool's idle connections do not hold the event loop, and
 * a failed connect leaves no timer or socket behind).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestPostgres, testPostgres } from './support/postgres-server'
import { collect, spawnFixture } from './support/spawn-fixture'
import { closedPort } from './support/tcp-proxy'

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('process_exit')
})
afterAll(() => pg.dispose())

async function runToEnd(url: string, mode: 'dispose' | 'forget'): Promise<unknown> {
  const child = await spawnFixture('store-then-exit.ts', [url, pg.schema, mode])
  // A process that never ends is killed after 20 s and fails the exit-code check below.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const { stdout, stderr, code } = await collect(child)
  clearTimeout(guard)
  expect(code, stderr).toBe(0)
  return JSON.parse(/^result (.*)$/m.exec(stdout)?.[1] ?? 'null')
}

describe('the process ends by itself', () => {
  it('after using a reachable store, disposed or not', { timeout: 90_000 }, async () => {
    expect(await runToEnd(pg.connectionString, 'dispose')).toEqual({ ok: true, found: false })
    expect(await runToEnd(pg.connectionString, 'forget')).toEqual({ ok: true, found: false })
  })

  it('after a store whose server refused the connection', { timeout: 60_000 }, async () => {
    const url = `postgres://dsh:secret@127.0.0.1:${await closedPort()}/tools`
    expect(await runToEnd(url, 'forget')).toEqual({ ok: false, unavailable: true })
  })
})
