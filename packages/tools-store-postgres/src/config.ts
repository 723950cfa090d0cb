/**
 * The store's config and its validation: a plain function for direct use and a Standard Schema
 * that cordis applies to the plugin config. Either the store opens its own pool from a
 * connection string (and ends it on dispose) or it borrows the caller's pool (and never ends it).
 */
import { type ConfigIssue, type ConfigValidationResult, standardConfigSchema } from '@dsh/tools-core'
import type { Pool } from 'pg'

interface CommonConfig {
  /**
   * The PostgreSQL schema holding the store's tables (default `public`); created when missing.
   * Several stores can share one database in different schemas.
   */
  readonly schema?: string
  /**
   * Bound on one statement, in ms (default 10 000): the server cancels it (`statement_timeout`,
   * on a pool the store opened) and the store drops the connection a second later if the server
   * did not answer (any pool). Either way the call rejects with `StoreUnavailableError`.
   */
  readonly statementTimeoutMs?: number
}

/** The store opens and owns a pool: ended when the plugin is disposed. */
export interface PostgresConnectionStringConfig extends CommonConfig {
  /** A `postgres://user:password@host:port/database` URL. The password never appears in messages. */
  readonly connectionString: string
  /** Bound on opening one connection, in ms (default 5 000). */
  readonly connectTimeoutMs?: number
  /** At most this many connections in the store's pool (default 10). */
  readonly maxConnections?: number
}

/** The store borrows the caller's pool: it never ends it, and adds no listener to it. */
export interface PostgresPoolConfig extends CommonConfig {
  /** A `pg.Pool` the caller created and ends. Its own connect timeout applies. */
  readonly pool: Pool
}

/** `{ connectionString, … }` or `{ pool, … }`; see the README's Config table. */
export type PostgresToolStoreConfig = PostgresConnectionStringConfig | PostgresPoolConfig

/** A validated `{ connectionString }` config with its defaults filled in. */
export interface ResolvedPostgresConnectionStringConfig {
  readonly connectionString: string
  readonly schema: string
  readonly statementTimeoutMs: number
  readonly connectTimeoutMs: number
  readonly maxConnections: number
}

/** A validated `{ pool }` config with its defaults filled in. */
export interface ResolvedPostgresPoolConfig {
  readonly pool: Pool
  readonly schema: string
  readonly statementTimeoutMs: number
}

/** The validated config with its defaults filled in. */
export type ResolvedPostgresToolStoreConfig =
  | ResolvedPostgresConnectionStringConfig
  | ResolvedPostgresPoolConfig

/** The defaults {@link checkPostgresToolStoreConfig} applies. */
export const DEFAULT_POSTGRES_STORE_CONFIG = Object.freeze({
  schema: 'public',
  statementTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  maxConnections: 10,
})

// Node timers overflow past 2^31 - 1 ms.
const MAX_MS = 2_147_483_647
// An unquoted-style identifier: no quoting surprises, fits PostgreSQL's 63-byte limit.
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
const SHARED_KEYS = ['schema', 'statementTimeoutMs']
const URL_KEYS = new Set([...SHARED_KEYS, 'connectionString', 'connectTimeoutMs', 'maxConnections'])
const POOL_KEYS = new Set([...SHARED_KEYS, 'pool'])

type Raw = Record<string, unknown>

function integerIn(raw: Raw, key: string, min: number, max: number, fallback: number, issues: ConfigIssue[]) {
  const value = raw[key]
  if (value === undefined) return fallback
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value
  issues.push({ message: `${key} must be an integer from ${min} to ${max}`, path: [key] })
  return fallback
}

function isPool(value: unknown): value is Pool {
  // Duck-typed: the caller's `pg` may be another copy than ours.
  const pool = value as Partial<Pool> | null
  return typeof pool === 'object' && pool !== null && typeof pool.connect === 'function'
}

/** Validate a raw config and fill in the defaults; a resolved config validates to itself. */
export function checkPostgresToolStoreConfig(
  value: unknown,
): ConfigValidationResult<ResolvedPostgresToolStoreConfig> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { issues: [{ message: 'tools-store-postgres config must be { connectionString } or { pool }' }] }
  const raw = value as Raw
  const hasUrl = raw['connectionString'] !== undefined
  if (hasUrl === (raw['pool'] !== undefined))
    return { issues: [{ message: 'give exactly one of connectionString and pool' }] }
  const issues: ConfigIssue[] = []
  const allowed = hasUrl ? URL_KEYS : POOL_KEYS
  for (const key of Object.keys(raw)) {
    if (!allowed.has(key))
      issues.push({
        message: URL_KEYS.has(key)
          ? `\`${key}\` applies to a pool the store opens; set it on your own pool instead`
          : `unknown config key \`${key}\``,
        path: [key],
      })
  }
  const schema = raw['schema'] ?? DEFAULT_POSTGRES_STORE_CONFIG.schema
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema))
    issues.push({ message: 'schema must be a plain identifier (letters, digits, _)', path: ['schema'] })
  const statementTimeoutMs = integerIn(raw, 'statementTimeoutMs', 1, MAX_MS, 10_000, issues)
  if (!hasUrl) {
    if (!isPool(raw['pool'])) issues.push({ message: 'pool must be a pg.Pool', path: ['pool'] })
    if (issues.length > 0) return { issues }
    return { value: { pool: raw['pool'] as Pool, schema: schema as string, statementTimeoutMs } }
  }
  const connectionString = raw['connectionString']
  if (typeof connectionString !== 'string' || connectionString === '')
    issues.push({ message: 'connectionString must be a non-empty string', path: ['connectionString'] })
  const connectTimeoutMs = integerIn(raw, 'connectTimeoutMs', 1, MAX_MS, 5_000, issues)
  const maxConnections = integerIn(raw, 'maxConnections', 1, 10_000, 10, issues)
  if (issues.length > 0) return { issues }
  return {
    value: {
      connectionString: connectionString as string,
      schema: schema as string,
      statementTimeoutMs,
      connectTimeoutMs,
      maxConnections,
    },
  }
}

/** Validates {@link PostgresToolStoreConfig} for cordis (`PostgresToolStore.Config`). */
export const PostgresToolStoreConfigSchema = standardConfigSchema<
  PostgresToolStoreConfig,
  ResolvedPostgresToolStoreConfig
>(checkPostgresToolStoreConfig)

/** Validate `config` or throw a `TypeError` naming the first problem. */
export function resolvePostgresToolStoreConfig(config: unknown): ResolvedPostgresToolStoreConfig {
  const checked = checkPostgresToolStoreConfig(config)
  if (checked.issues)
    throw new TypeError(`invalid tools-store-postgres config: ${checked.issues[0]!.message}`)
  return checked.value
}
