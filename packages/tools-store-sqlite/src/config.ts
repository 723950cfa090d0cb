/**
 * The plugin config: where the database file is and how long a statement may wait for another
 * process's lock. Checked by cordis through `SqliteToolStore.Config` before the service starts.
 */
import { resolve } from 'node:path'
import { type ConfigIssue, type StandardConfigSchema, standardConfigSchema } from '@dsh/tools-core'

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
const KEYS = new Set(['path', 'busyTimeoutMs', 'sweepIntervalMs', 'synchronous'])

type Checked = { readonly value: SqliteToolStoreConfig } | { readonly issues: readonly ConfigIssue[] }

/** Validates a config: the resolved value, or every problem found (unknown keys included). */
export function checkSqliteToolStoreConfig(input: unknown): Checked {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { issues: [{ message: 'config must be an object with a `path`' }] }
  }
  const record = input as Record<string, unknown>
  const issues: ConfigIssue[] = []
  for (const key of Object.keys(record)) {
    if (!KEYS.has(key))
      issues.push({ message: `unknown key (expected ${[...KEYS].join(', ')})`, path: [key] })
  }
  const { path, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS, sweepIntervalMs, synchronous = 'full' } = record
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    issues.push({ message: 'must be a non-empty file path', path: ['path'] })
  } else if (path === ':memory:' || path.startsWith('file:')) {
    issues.push({
      message: 'must be a file path (an in-memory database is not durable: use MemoryToolStore)',
      path: ['path'],
    })
  }
  const isDelay = (value: unknown, min: number) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= MAX_TIMER_MS
  if (!isDelay(busyTimeoutMs, 0))
    issues.push({ message: `must be an integer from 0 to ${MAX_TIMER_MS}`, path: ['busyTimeoutMs'] })
  if (sweepIntervalMs !== undefined && !isDelay(sweepIntervalMs, 1)) {
    issues.push({ message: `must be an integer from 1 to ${MAX_TIMER_MS}`, path: ['sweepIntervalMs'] })
  }
  if (synchronous !== 'full' && synchronous !== 'normal') {
    issues.push({ message: 'must be "full" or "normal"', path: ['synchronous'] })
  }
  if (issues.length > 0) return { issues }
  return {
    value: Object.freeze({
      path: resolve(path as string),
      busyTimeoutMs: busyTimeoutMs as number,
      sweepIntervalMs: sweepIntervalMs as number | undefined,
      synchronous: synchronous as SqliteSynchronous,
    }),
  }
}

/** Thrown by the service constructor for a config cordis did not check (direct construction). */
export class SqliteToolStoreConfigError extends TypeError {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(
      `invalid @dsh/tools-store-sqlite config: ${issues
        .map((issue) => (issue.path ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
        .join('; ')}`,
    )
    this.name = 'SqliteToolStoreConfigError'
  }
}

/** The resolved config, or a {@link SqliteToolStoreConfigError} listing every problem. */
export function resolveSqliteToolStoreConfig(input: unknown): SqliteToolStoreConfig {
  const checked = checkSqliteToolStoreConfig(input)
  if ('issues' in checked) throw new SqliteToolStoreConfigError(checked.issues)
  return checked.value
}

/** The Standard Schema cordis applies to the plugin config. */
export const SqliteToolStoreConfigSchema: StandardConfigSchema<
  SqliteToolStoreConfigInput,
  SqliteToolStoreConfig
> = standardConfigSchema(checkSqliteToolStoreConfig)
