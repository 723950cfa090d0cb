/**
 * The plugin config: where the database file is and how long a statement may wait for another
 * process's lock. Declared once with `configSchema` (validator, JSON Schema and the README's
 * Config table); cordis checks it through `SqliteToolStore.Config` before the service starts.
 */
import { resolve } from 'node:path'
import {
  type ConfigProblem,
  type ConfigSchema,
  type ConfigSchemaIssue,
  type ConfigSchemaResult,
  configSchema,
} from '@dsh/tools-core'

/** What a host passes to `ctx.plugin(SqliteToolStore, config)`. */
export interface SqliteToolStoreConfigInput {
  /** The database file (created with its directory's permissions when missing); relative to the working directory. */
  readonly path: string
  /** How long a statement waits for another connection's write lock before failing `STORE_UNAVAILABLE` (ms, default 5000). */
  readonly busyTimeoutMs?: number
  /** When set, sweep expired records every this many ms (an unref'd timer); default off. */
  readonly sweepIntervalMs?: number
  /**
   * When a commit reaches the disk. `'full'` (default): every commit is synced before it returns,
   * so a claim survives a power loss and no body runs twice after one. `'normal'`: commits are
   * synced at WAL checkpoints only — still durable when the process dies (SIGKILL, a crash), about
   * 20× faster per state change, but a power loss or OS crash may roll back the last commits,
   * and with them a claim whose body already ran.
   */
  readonly synchronous?: SqliteSynchronous
}

/** See {@link SqliteToolStoreConfigInput.synchronous}. */
export type SqliteSynchronous = 'full' | 'normal'

/** The config in force: `path` absolute, defaults filled in. */
export interface SqliteToolStoreConfig {
  readonly path: string
  readonly busyTimeoutMs: number
  readonly sweepIntervalMs: number | undefined
  readonly synchronous: SqliteSynchronous
}

/** Default of `busyTimeoutMs`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000
/** The largest delay Node's timers accept (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647

/** Rules the spec cannot say about `path`: a real file, never an in-memory database. */
function checkPath({ path }: { readonly path: string }): ConfigProblem[] {
  if (path.includes('\0')) return [{ path: ['path'], message: 'must be a file path without NUL bytes' }]
  if (path === ':memory:' || path.startsWith('file:'))
    return [
      {
        path: ['path'],
        message: 'must be a file path (an in-memory database is not durable: use MemoryToolStore)',
      },
    ]
  return []
}

/** The Standard Schema cordis applies to the plugin config (`SqliteToolStore.Config`). */
export const SqliteToolStoreConfigSchema: ConfigSchema<SqliteToolStoreConfigInput, SqliteToolStoreConfig> =
  configSchema(
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        path: {
          type: 'string',
          minLength: 1,
          required: true,
          description:
            'the database file, created when missing; relative to the working directory. `:memory:` and `file:` URIs are refused (not durable: use `MemoryToolStore`)',
        },
        busyTimeoutMs: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_TIMER_MS,
          default: DEFAULT_BUSY_TIMEOUT_MS,
          description:
            "ms a statement waits for another connection's write lock before failing `STORE_UNAVAILABLE`",
        },
        sweepIntervalMs: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TIMER_MS,
          description:
            "delete expired records every this many ms on an unref'd timer (never keeps the process alive, `tests/processes.integration.spec.ts`; a failed sweep logs a warning); default off",
        },
        synchronous: {
          type: 'string',
          enum: ['full', 'normal'],
          default: 'full',
          description:
            'when a commit reaches the disk: `full` syncs every commit (a claim survives a power loss, so no body runs twice after one); `normal` syncs at WAL checkpoints only — still durable when the process dies, about 20× faster per state change (`pnpm bench durable`), but a power loss or OS crash may roll back the last commits, a claim whose body already ran among them',
        },
      },
    },
    {
      check: checkPath,
      resolve: (config) =>
        Object.freeze({
          path: resolve(config.path),
          busyTimeoutMs: config.busyTimeoutMs,
          sweepIntervalMs: config.sweepIntervalMs,
          synchronous: config.synchronous,
        }),
    },
  )

/** Validates a config: the resolved value, or every problem found (unknown keys included). Never throws. */
export function checkSqliteToolStoreConfig(input: unknown): ConfigSchemaResult<SqliteToolStoreConfig> {
  return SqliteToolStoreConfigSchema['~standard'].validate(input)
}

/** Thrown by the service constructor for a config cordis did not check (direct construction). */
export class SqliteToolStoreConfigError extends TypeError {
  constructor(readonly issues: readonly ConfigSchemaIssue[]) {
    super(`invalid @dsh/tools-store-sqlite config: ${issues.map((issue) => issue.message).join('; ')}`)
    this.name = 'SqliteToolStoreConfigError'
  }
}

/** The resolved config, or a {@link SqliteToolStoreConfigError} listing every problem. */
export function resolveSqliteToolStoreConfig(input: unknown): SqliteToolStoreConfig {
  const checked = checkSqliteToolStoreConfig(input)
  if (checked.issues !== undefined) throw new SqliteToolStoreConfigError(checked.issues)
  return checked.value
}
