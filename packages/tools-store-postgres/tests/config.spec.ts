// Every rule of the store's config, without a server: exactly one of `connectionString` and
// `pool`; the own-pool keys refused next to a borrowed pool; the schema identifier; the bounds;
// the defaults (own-pool ones only with a connection string); unknown keys; the shared wording.
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { resolvePostgresToolStoreConfig } from '../src/config'
import {
  checkPostgresToolStoreConfig,
  DEFAULT_POSTGRES_STORE_CONFIG,
  PostgresToolStoreConfigSchema,
} from '../src/index'

const url = 'postgres://user:secret@127.0.0.1:1/db'
// Constructing a pool opens no connection.
const pool = new pg.Pool({ connectionString: url })
afterAll(() => pool.end())

/** The accepted config (the test fails with the issues otherwise). */
function accepted(value: unknown) {
  const checked = checkPostgresToolStoreConfig(value)
  if (checked.issues !== undefined) throw new Error(checked.issues.map((issue) => issue.message).join('; '))
  return checked.value
}

const messages = (value: unknown) => checkPostgresToolStoreConfig(value).issues?.map((issue) => issue.message)

describe('config', () => {
  it('fills the defaults: all four with a connection string, the shared two with a pool', () => {
    expect(accepted({ connectionString: url })).toEqual({
      connectionString: url,
      ...DEFAULT_POSTGRES_STORE_CONFIG,
    })
    const borrowed = accepted({ pool, schema: 'tenant_1', statementTimeoutMs: 1 })
    expect(borrowed).toEqual({ pool, schema: 'tenant_1', statementTimeoutMs: 1 })
    expect((borrowed as { pool: unknown }).pool).toBe(pool)
  })

  it('a resolved config validates to itself', () => {
    for (const config of [{ connectionString: url, maxConnections: 3 }, { pool }]) {
      const resolved = resolvePostgresToolStoreConfig(config)
      expect(accepted(resolved)).toEqual(resolved)
    }
  })

  it('needs exactly one of connectionString and pool', () => {
    expect(messages({})).toEqual(['$: give exactly one of connectionString and pool'])
    expect(messages(undefined)).toEqual(['$: give exactly one of connectionString and pool'])
    expect(messages({ connectionString: url, pool })).toEqual([
      '$: give exactly one of connectionString and pool',
    ])
    expect(messages({ connectionString: '' })?.[0]).toMatch(/^\$\.connectionString: /)
    expect(messages({ pool: { query() {} } })?.[0]).toMatch(/^\$\.pool: expected a pg\.Pool/)
  })

  it('refuses the own-pool keys next to a borrowed pool, naming each', () => {
    expect(checkPostgresToolStoreConfig({ pool, connectTimeoutMs: 5, maxConnections: 2 }).issues).toEqual([
      {
        message:
          '$.connectTimeoutMs: `connectTimeoutMs` applies to a pool the store opens; set it on your own pool instead',
        path: ['connectTimeoutMs'],
      },
      {
        message:
          '$.maxConnections: `maxConnections` applies to a pool the store opens; set it on your own pool instead',
        path: ['maxConnections'],
      },
    ])
  })

  it('refuses a schema that is not a plain identifier, bad bounds and unknown keys, by path', () => {
    const checked = checkPostgresToolStoreConfig({
      connectionString: url,
      schema: 'bad-name"; drop',
      statementTimeoutMs: 0,
      connectTimeoutMs: 2 ** 31,
      maxConnections: 10_001,
      poolSize: 3,
    })
    expect(checked.issues?.map((issue) => issue.path?.join('.')).sort()).toEqual(
      ['connectTimeoutMs', 'maxConnections', 'poolSize', 'schema', 'statementTimeoutMs'].sort(),
    )
    expect(messages({ connectionString: url, schema: 'a'.repeat(64) })?.[0]).toMatch(/^\$\.schema: /)
    expect(accepted({ connectionString: url, schema: `_${'a'.repeat(62)}` })).toBeDefined()
    expect(accepted({ connectionString: url, maxConnections: 10_000 })).toBeDefined()
  })

  it('direct construction throws a TypeError listing every problem; the password never shows', () => {
    expect(() =>
      resolvePostgresToolStoreConfig({ connectionString: url, schema: '1x', statementTimeoutMs: -1 }),
    ).toThrow(/^invalid tools-store-postgres config: \$\.schema: .*; \$\.statementTimeoutMs: /)
    expect(messages({ connectionString: url, schema: 1 })?.join()).not.toContain('secret')
  })

  it('publishes a JSON Schema (the README table is written from it)', () => {
    const schema = PostgresToolStoreConfigSchema['~standard'].jsonSchema.input({ target: 'draft-07' })
    expect(Object.keys(schema['properties'] as object)).toEqual([
      'connectionString',
      'pool',
      'schema',
      'statementTimeoutMs',
      'connectTimeoutMs',
      'maxConnections',
    ])
  })
})
