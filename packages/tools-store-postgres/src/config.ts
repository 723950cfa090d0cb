/**
 * The store's config, declared once with `configSchema` (validator, JSON Schema and the README's
 * Config table), plus a plain function for direct use. Either the store opens its own pool from a
 * connection string (and ends it on dispose) or it borrows the caller's pool (and never ends it).
 */
import { type ConfigProblem, type ConfigSchema, type ConfigSchemaResult, configSchema } from '@dsh/tools-core'
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
/** Keys that configure a pool the store opens: meaningless (so refused) next to a borrowed one. */
const OWN_POOL_KEYS = ['connectTimeoutMs', 'maxConnections'] as const

function isPool(value: unknown): value is Pool {
  // Duck-typed: the caller's `pg` may be another copy than ours.
  const pool = value as Partial<Pool> | null
  return typeof pool === 'object' && pool !== null && typeof pool.connect === 'function'
}

const ms = { type: 'integer', minimum: 1, maximum: MAX_MS } as const

/**
 * The union `{ connectionString } | { pool }` is one object here with the rules across fields
 * in `check`: `connectTimeoutMs` and `maxConnections` carry no spec default, so a value the user
 * set next to a `pool` can be told from none; `resolve` fills them in for a connection string.
 */
const spec = {
  type: 'object',
  additionalProperties: false,
  properties: {
    connectionString: {
      type: 'string',
      minLength: 1,
      description:
        '`postgres://user:password@host:port/database`: the store opens (and on dispose ends) its own pool. Exactly one of `connectionString` and `pool`',
    },
    pool: {
      type: 'host',
      description:
        'a pg.Pool you created (borrowed: never ended, no listener added; its own connect timeout and size apply)',
      is: isPool,
    },
    schema: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$',
      default: DEFAULT_POSTGRES_STORE_CONFIG.schema,
      description:
        'the PostgreSQL schema holding the tables (a plain identifier: letters, digits, `_`); created when missing; several stores can share one database',
    },
    statementTimeoutMs: {
      ...ms,
      default: DEFAULT_POSTGRES_STORE_CONFIG.statementTimeoutMs,
      description:
        'bound on one statement: the server cancels it (`statement_timeout`, on a pool the store opened) and the store drops a connection that does not answer within a further second (any pool)',
    },
    connectTimeoutMs: {
      ...ms,
      description: 'bound on opening one connection (default 5000; only with `connectionString`)',
    },
    maxConnections: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      description: "size of the store's own pool (default 10; only with `connectionString`)",
    },
  },
} as const

type Filled = {
  readonly connectionString?: string
  readonly pool?: Pool
  readonly schema: string
  readonly statementTimeoutMs: number
  readonly connectTimeoutMs?: number
  readonly maxConnections?: number
}

function check(config: Filled): ConfigProblem[] {
  if ((config.connectionString === undefined) === (config.pool === undefined))
    return [{ path: [], message: 'give exactly one of connectionString and pool' }]
  if (config.pool === undefined) return []
  return OWN_POOL_KEYS.filter((key) => config[key] !== undefined).map((key) => ({
    path: [key],
    message: `\`${key}\` applies to a pool the store opens; set it on your own pool instead`,
  }))
}

function resolve(config: Filled): ResolvedPostgresToolStoreConfig {
  const { schema, statementTimeoutMs } = config
  if (config.pool !== undefined) return Object.freeze({ pool: config.pool, schema, statementTimeoutMs })
  return Object.freeze({
    connectionString: config.connectionString!,
    schema,
    statementTimeoutMs,
    connectTimeoutMs: config.connectTimeoutMs ?? DEFAULT_POSTGRES_STORE_CONFIG.connectTimeoutMs,
    maxConnections: config.maxConnections ?? DEFAULT_POSTGRES_STORE_CONFIG.maxConnections,
  })
}

/** Validates {@link PostgresToolStoreConfig} for cordis (`PostgresToolStore.Config`). */
export const PostgresToolStoreConfigSchema: ConfigSchema<
  PostgresToolStoreConfig,
  ResolvedPostgresToolStoreConfig
> = configSchema(spec, { check, resolve }) as ConfigSchema<
  // The spec's inferred input is the flat object; users write the union.
  PostgresToolStoreConfig,
  ResolvedPostgresToolStoreConfig
>

/** Validate a raw config and fill in the defaults; a resolved config validates to itself. Never throws. */
export function checkPostgresToolStoreConfig(
  value: unknown,
): ConfigSchemaResult<ResolvedPostgresToolStoreConfig> {
  return PostgresToolStoreConfigSchema['~standard'].validate(value)
}

/** Validate `config` or throw a `TypeError` naming every problem. */
export function resolvePostgresToolStoreConfig(config: unknown): ResolvedPostgresToolStoreConfig {
  const checked = checkPostgresToolStoreConfig(config)
  if (checked.issues !== undefined)
    throw new TypeError(
      `invalid tools-store-postgres config: ${checked.issues.map((issue) => issue.message).join('; ')}`,
    )
  return checked.value
}
