import { homedir } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import type { ConfigIssue } from '@dsh/tools-core'

/**
 * The OS sandbox settings as a user writes them: `false` opts out, `true` or an object (any
 * subset of the fields) opts in. Omitted, the sandbox is on.
 */
export type BashSandboxInput =
  | boolean
  | {
      /** `false` runs commands without the sandbox (default `true`). */
      readonly enabled?: boolean
      /**
       * What a call does when the sandbox cannot run on this host: `'refuse'` (default) fails
       * every call with `BASH_SANDBOX_UNAVAILABLE`; `'unsandboxed'` runs it without the sandbox.
       * Either way the plugin logs one warning at startup.
       */
      readonly fallback?: 'refuse' | 'unsandboxed'
      /** `'none'` (default): a private network namespace with no interfaces; `'host'`: the host's network. */
      readonly network?: 'none' | 'host'
      /** Extra writable directories besides the configured `workdir` (default none). */
      readonly allowWrite?: readonly string[]
      /** Paths hidden from the command (default: the user's home directory). */
      readonly denyRead?: readonly string[]
      /**
       * Most entries the protection scan reads in the writable roots before and after a call;
       * past it the call is refused with `BASH_PROTECTION_UNAVAILABLE` (default 200000).
       */
      readonly maxScanEntries?: number
    }

/** The validated sandbox settings: every field present, paths absolute. */
export interface BashSandboxConfig {
  readonly enabled: boolean
  readonly fallback: 'refuse' | 'unsandboxed'
  readonly network: 'none' | 'host'
  readonly allowWrite: readonly string[]
  readonly denyRead: readonly string[]
  readonly maxScanEntries: number
}

/** Default of `sandbox.maxScanEntries`: entries the protection scan reads before refusing. */
export const DEFAULT_MAX_SCAN_ENTRIES = 200_000

const SANDBOX_KEYS = new Set(['enabled', 'fallback', 'network', 'allowWrite', 'denyRead', 'maxScanEntries'])

/** The default read denies: the home directory, where dotfiles and credentials live (never `/`). */
function defaultDenyRead(): string[] {
  const home = homedir()
  return home === '' || home === '/' ? [] : [home]
}

const isPathList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== '')

const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(process.cwd(), path))

/**
 * Validate the `sandbox` key of the plugin config, pushing problems onto `issues`.
 *
 * @param input — the raw `sandbox` value (`undefined` means the defaults).
 * @param issues — collects validation problems (paths prefixed with `sandbox`).
 */
export function resolveSandboxConfig(input: unknown, issues: ConfigIssue[]): BashSandboxConfig {
  const raw = typeof input === 'boolean' ? { enabled: input } : (input ?? {})
  const fallbackConfig: BashSandboxConfig = {
    enabled: true,
    fallback: 'refuse',
    network: 'none',
    allowWrite: [],
    denyRead: defaultDenyRead(),
    maxScanEntries: DEFAULT_MAX_SCAN_ENTRIES,
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    issues.push({ message: 'must be a boolean or an object', path: ['sandbox'] })
    return fallbackConfig
  }
  const record = raw as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!SANDBOX_KEYS.has(key)) issues.push({ message: 'unknown config key', path: ['sandbox', key] })
  }
  const pick = <T>(key: string, ok: (value: unknown) => value is T, message: string, value: T): T => {
    const given = record[key]
    if (given === undefined) return value
    if (ok(given)) return given
    issues.push({ message, path: ['sandbox', key] })
    return value
  }
  const enabled = pick('enabled', (v): v is boolean => typeof v === 'boolean', 'must be a boolean', true)
  const fallback = pick(
    'fallback',
    (v): v is 'refuse' | 'unsandboxed' => v === 'refuse' || v === 'unsandboxed',
    "must be 'refuse' or 'unsandboxed'",
    fallbackConfig.fallback,
  )
  const network = pick(
    'network',
    (v): v is 'none' | 'host' => v === 'none' || v === 'host',
    "must be 'none' or 'host'",
    fallbackConfig.network,
  )
  const allowWrite = pick('allowWrite', isPathList, 'must be an array of non-empty paths', [])
  const denyRead = pick(
    'denyRead',
    isPathList,
    'must be an array of non-empty paths',
    fallbackConfig.denyRead,
  )
  const maxScanEntries = pick(
    'maxScanEntries',
    (v): v is number => Number.isSafeInteger(v) && (v as number) > 0,
    'must be a positive integer',
    DEFAULT_MAX_SCAN_ENTRIES,
  )
  return Object.freeze({
    enabled,
    maxScanEntries,
    fallback,
    network,
    allowWrite: Object.freeze(allowWrite.map(absolute)),
    denyRead: Object.freeze(denyRead.map(absolute)),
  })
}
