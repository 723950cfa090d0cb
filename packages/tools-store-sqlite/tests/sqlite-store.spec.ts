// The SQLite store's own rules on real files: config checking, the label, failing closed as
// STORE_UNAVAILABLE (busy past the timeout, corrupt or newer files, a closed store) without
// crashing the host, caller bugs as TypeErrors that write nothing, and the periodic sweep.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import { isToolsError, type NewStoredRecord, StoreUnavailableError } from '@dsh/tools-core'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it, vi } from 'vitest'
import SqliteToolStore, {
  checkSqliteToolStoreConfig,
  resolveSqliteToolStoreConfig,
  SCHEMA_VERSION,
  SqliteToolStoreConfigError,
} from '../src/index'
import { openDatabase } from '../src/open-database'
import { openStore, tempDirectory, writeVersion1 } from './fixtures/sqlite-files'

const files = tempDirectory('sqlite-store')
afterAll(() => files.remove())

const now = Date.now()
const record = (key: string, extra: Partial<NewStoredRecord> = {}): NewStoredRecord => ({
  kind: 'approval',
  agent: 'a',
  key,
  state: 'pending',
  data: '{}',
  createdAt: now,
  expiresAt: now + 86_400_000,
  ...extra,
})

async function unavailable(promise: Promise<unknown>, label: string, reason: RegExp): Promise<void> {
  const error = await promise.then(
    () => expect.fail('expected STORE_UNAVAILABLE'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(StoreUnavailableError)
  expect(isToolsError(error) && error.code).toBe('STORE_UNAVAILABLE')
  expect((error as Error).message).toContain(label)
  expect((error as Error).message).toMatch(reason)
}

describe('config', () => {
  it('resolves a relative path, fills defaults and names every problem', () => {
    const absolute = files.file('relative')
    const path = relative(process.cwd(), absolute)
    expect(resolveSqliteToolStoreConfig({ path })).toEqual({
      path: absolute,
      busyTimeoutMs: 5000,
      sweepIntervalMs: undefined,
      synchronous: 'full',
    })
    const checked = checkSqliteToolStoreConfig({
      path: '',
      busyTimeoutMs: -1,
      sweepIntervalMs: 0.5,
      synchronous: 'off',
      pth: 'x',
    })
    expect(checked.issues?.map((issue) => issue.path?.join('.'))).toEqual([
      'path',
      'busyTimeoutMs',
      'sweepIntervalMs',
      'synchronous',
      'pth',
    ])
    expect(() => resolveSqliteToolStoreConfig({ path: ':memory:' })).toThrow(
      /in-memory database is not durable/,
    )
    expect(() => resolveSqliteToolStoreConfig({ path: 'file:x.db' })).toThrow(/\$\.path: must be a file path/)
    expect(() => resolveSqliteToolStoreConfig({ path: 'a\0b' })).toThrow(/\$\.path: must be a file path/)
    expect(() => resolveSqliteToolStoreConfig(undefined)).toThrow(SqliteToolStoreConfigError)
    expect(() => resolveSqliteToolStoreConfig(undefined)).toThrow(/missing required property "path"/)
    expect(() => resolveSqliteToolStoreConfig({ path: 'x', busyTimeoutMs: 2 ** 31 })).toThrow(
      /\$\.busyTimeoutMs: expected number <= 2147483647/,
    )
    // A resolved config validates to itself (cordis may validate twice).
    const resolved = resolveSqliteToolStoreConfig({ path, sweepIntervalMs: 1, synchronous: 'normal' })
    expect(checkSqliteToolStoreConfig(resolved)).toEqual({ value: resolved })
  })

  it('cordis refuses an invalid config before the service starts', async () => {
    const ctx = new Context()
    await expect(async () => ctx.plugin(SqliteToolStore, { path: 42 } as never)).rejects.toThrow()
    expect(ctx.get('toolStore')).toBeUndefined()
    await ctx.fiber.dispose()
  })

  it('labels the store with its absolute path', async () => {
    const path = files.file('label')
    const { store, close } = await openStore({ path })
    expect(store.label).toBe(`sqlite ${path}`)
    await close()
  })
})

describe('failing closed', () => {
  it('a write blocked past busyTimeoutMs by another connection is STORE_UNAVAILABLE; reads go on, and writes resume after', async () => {
    const path = files.file('busy')
    const { store, close } = await openStore({ path, busyTimeoutMs: 50 })
    await store.create(record('before'))
    const other = new Database(path)
    other.exec('BEGIN IMMEDIATE')
    await unavailable(store.create(record('blocked')), `sqlite ${path}`, /database is locked/)
    await unavailable(
      store.update(record('before'), 1, { state: 'approved', updatedAt: now }),
      `sqlite ${path}`,
      /locked/,
    )
    expect(await store.get(record('before'))).toMatchObject({ version: 1 }) // WAL: readers never wait
    other.exec('ROLLBACK')
    other.close()
    expect(await store.create(record('after'))).toMatchObject({ version: 1 })
    expect(await store.get(record('blocked'))).toBeUndefined()
    await close()
  })

  it('a corrupt file is STORE_UNAVAILABLE from every method, and the host keeps running', async () => {
    const path = files.file('corrupt')
    const { store: first, close: closeFirst } = await openStore({ path })
    for (let i = 0; i < 50; i++) await first.create(record(`r-${i}`, { data: `"${'z'.repeat(2000)}"` }))
    await closeFirst()
    const bytes = readFileSync(path)
    bytes.fill(0xa5, 100) // keep SQLite's 100-byte header, scramble every page
    writeFileSync(path, bytes)
    const { store, close } = await openStore({ path })
    await unavailable(store.get(record('r-1')), `sqlite ${path}`, /malformed|not a database|corrupt/)
    await unavailable(store.list({ kind: 'approval' }), `sqlite ${path}`, /malformed|not a database|corrupt/)
    await unavailable(store.sweep(now), `sqlite ${path}`, /malformed|not a database|corrupt/)
    await close()
  })

  it('a file written by a newer schema version is refused, not guessed at', async () => {
    const path = files.file('newer')
    writeVersion1(path, [])
    const db = new Database(path)
    db.prepare(`UPDATE tool_store_meta SET value = ? WHERE name = 'schema_version'`).run(
      String(SCHEMA_VERSION + 1),
    )
    db.close()
    const { store, close } = await openStore({ path })
    await unavailable(
      store.get(record('x')),
      `sqlite ${path}`,
      new RegExp(`schema version ${SCHEMA_VERSION + 1} is not one`),
    )
    await close()
  })

  it('a store whose fiber was disposed closes its file and rejects every later call as closed', async () => {
    const path = files.file('closed')
    const { store, close } = await openStore({ path })
    await store.create(record('kept'))
    expect(existsSync(`${path}-wal`)).toBe(true)
    await close()
    // The last connection checkpointed and removed the WAL: the file is closed and complete.
    expect(existsSync(`${path}-wal`)).toBe(false)
    await unavailable(store.get(record('kept')), `sqlite ${path}`, /the store is closed/)
    await unavailable(store.create(record('late')), `sqlite ${path}`, /the store is closed/)
    const { store: reopened, close: closeAgain } = await openStore({ path })
    expect(await reopened.get(record('kept'))).toMatchObject({ version: 1 })
    expect(await reopened.get(record('late'))).toBeUndefined()
    await closeAgain()
  })

  it('a store opened before its directory exists recovers once it does', async () => {
    const path = `${files.dir}/later/store.db`
    const { store, close } = await openStore({ path })
    await unavailable(store.get(record('x')), `sqlite ${path}`, /directory does not exist|unable to open/)
    const { mkdirSync } = await import('node:fs')
    mkdirSync(`${files.dir}/later`)
    expect(await store.create(record('x'))).toMatchObject({ version: 1 })
    await close()
  })
})

describe('caller bugs', () => {
  it('a lone surrogate, a fractional time or an unknown kind is a TypeError and writes nothing', async () => {
    const { store, close } = await openStore({ path: files.file('input') })
    await expect(store.create(record('s', { data: '"\ud800"' }))).rejects.toThrow(
      /data holds a lone surrogate/,
    )
    await expect(store.create(record('\udc00'))).rejects.toThrow(/key holds a lone surrogate/)
    await expect(store.create(record('t', { createdAt: 1.5 }))).rejects.toThrow(
      /createdAt must be an integer/,
    )
    await expect(store.create(record('k', { kind: 'other' as never }))).rejects.toThrow(TypeError)
    await expect(store.update(record('t'), 1, { state: 'x', updatedAt: Number.NaN })).rejects.toThrow(
      /updatedAt/,
    )
    expect(await store.list({ kind: 'approval' })).toEqual([])
    await close()
  })
})

describe('schema', () => {
  it('a version-1 file is migrated to the current version with its rows, and reopening changes nothing', async () => {
    const path = files.file('migrate')
    writeVersion1(path, [record('old')])
    for (const round of [1, 2]) {
      const { store, close } = await openStore({ path })
      expect(await store.get(record('old')), `round ${round}`).toMatchObject({ state: 'pending', version: 1 })
      await close()
    }
    const db = new Database(path, { readonly: true })
    expect(db.prepare(`SELECT value FROM tool_store_meta`).all()).toEqual([{ value: String(SCHEMA_VERSION) }])
    expect((db.pragma('table_info(tool_records)') as Array<{ name: string }>).map((c) => c.name)).toContain(
      'lease_until',
    )
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
  })
})

describe('periodic sweep', () => {
  it('synchronous sets how each connection syncs: FULL by default, NORMAL when asked', () => {
    for (const [mode, pragma] of [
      ['full', 2],
      ['normal', 1],
    ] as const) {
      const db = openDatabase(files.file(`sync-${mode}`), 5000, mode)
      try {
        expect(db.pragma('synchronous', { simple: true })).toBe(pragma)
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
      } finally {
        db.close()
      }
    }
  })

  it('sweepIntervalMs deletes expired records on its own', async () => {
    const { store, close } = await openStore({ path: files.file('sweep'), sweepIntervalMs: 10 })
    await store.create(record('expired', { createdAt: 1, expiresAt: 2 }))
    await store.create(record('live'))
    await vi.waitFor(async () => expect(await store.get(record('expired'))).toBeUndefined(), {
      timeout: 5000,
    })
    expect(await store.get(record('live'))).toBeDefined()
    await close()
  })
})
