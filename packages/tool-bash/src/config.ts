import { isAbsolute, resolve } from 'node:path'
import type { ConfigIssue, ConfigValidationResult, StandardConfigSchema } from '@dsh/tools-core'
import { standardConfigSchema } from '@dsh/tools-core'
import { DEFAULT_ENV_ALLOW_LIST } from './environment'
import { type BashSandboxConfig, type BashSandboxInput, resolveSandboxConfig } from './sandbox-config'

/** The plugin config as a user writes it; every field is optional. */
export interface BashConfigInput {
  /** Budget of a call that passes no `timeoutMs` (ms, default 120000, ≤ `maxTimeoutMs`). */
  readonly defaultTimeoutMs?: number
  /** Largest budget a call may ask for; also the definition's declared `timeoutMs` (default 600000). */
  readonly maxTimeoutMs?: number
  /** Byte cap of captured stdout (default 32768). */
  readonly maxStdoutBytes?: number
  /** Byte cap of captured stderr (default 32768). */
  readonly maxStderrBytes?: number
  /** Working directory of calls without `workdir`, and base of relative ones (default `process.cwd()`). */
  readonly workdir?: string
  /** Host variables the shell inherits: exact names and `PREFIX*` patterns (default {@link DEFAULT_ENV_ALLOW_LIST}). */
  readonly envAllowList?: readonly string[]
  /** Variables set explicitly in the shell's environment, whatever their name. */
  readonly env?: Readonly<Record<string, string>>
  /** Delay between SIGTERM and SIGKILL to the process group (ms, default 2000). */
  readonly killGraceMs?: number
  /**
   * The OS sandbox (bubblewrap on Linux, `sandbox-exec` on macOS): on by default; `false` opts
   * out. See {@link BashSandboxInput}.
   */
  readonly sandbox?: BashSandboxInput
}

/** The validated config: every field present, `workdir` absolute. */
export interface BashConfig {
  readonly defaultTimeoutMs: number
  readonly maxTimeoutMs: number
  readonly maxStdoutBytes: number
  readonly maxStderrBytes: number
  readonly workdir: string
  readonly envAllowList: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly killGraceMs: number
  readonly sandbox: BashSandboxConfig
}

/** Defaults applied by {@link resolveBashConfig} (`workdir` defaults to `process.cwd()`). */
export const BASH_CONFIG_DEFAULTS = Object.freeze({
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  maxStdoutBytes: 32_768,
  maxStderrBytes: 32_768,
  killGraceMs: 2_000,
})

const KNOWN_KEYS = new Set([
  'defaultTimeoutMs',
  'maxTimeoutMs',
  'maxStdoutBytes',
  'maxStderrBytes',
  'workdir',
  'envAllowList',
  'env',
  'killGraceMs',
  'sandbox',
])

/**
 * Validate a raw config and fill in defaults. `undefined` is the empty config. A resolved
 * config resolves to itself, so resolving twice is harmless.
 *
 * @param input — the raw plugin config.
 */
export function resolveBashConfig(input: unknown): ConfigValidationResult<BashConfig> {
  const raw = input ?? {}
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { issues: [{ message: 'config must be an object' }] }
  const record = raw as Record<string, unknown>
  const issues: ConfigIssue[] = []
  for (const key of Object.keys(record)) {
    if (!KNOWN_KEYS.has(key)) issues.push({ message: `unknown config key`, path: [key] })
  }
  const integer = (key: keyof typeof BASH_CONFIG_DEFAULTS, min: number): number => {
    const value = record[key] ?? BASH_CONFIG_DEFAULTS[key]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      issues.push({ message: `must be an integer ≥ ${min}`, path: [key] })
      return BASH_CONFIG_DEFAULTS[key]
    }
    return value
  }
  const maxTimeoutMs = integer('maxTimeoutMs', 1)
  const defaultTimeoutMs = integer('defaultTimeoutMs', 1)
  if (defaultTimeoutMs > maxTimeoutMs)
    issues.push({ message: 'must not exceed maxTimeoutMs', path: ['defaultTimeoutMs'] })
  const maxStdoutBytes = integer('maxStdoutBytes', 0)
  const maxStderrBytes = integer('maxStderrBytes', 0)
  const killGraceMs = integer('killGraceMs', 0)

  const workdirValue = record['workdir'] ?? process.cwd()
  if (typeof workdirValue !== 'string' || workdirValue === '') {
    issues.push({ message: 'must be a non-empty path', path: ['workdir'] })
  }
  const envAllowList = record['envAllowList'] ?? DEFAULT_ENV_ALLOW_LIST
  if (!Array.isArray(envAllowList) || !envAllowList.every((e) => typeof e === 'string' && e !== '')) {
    issues.push({
      message: 'must be an array of non-empty names or PREFIX* patterns',
      path: ['envAllowList'],
    })
  }
  const env = record['env'] ?? {}
  if (
    typeof env !== 'object' ||
    env === null ||
    Array.isArray(env) ||
    !Object.values(env).every((v) => typeof v === 'string')
  ) {
    issues.push({ message: 'must map names to strings', path: ['env'] })
  }
  const sandbox = resolveSandboxConfig(record['sandbox'], issues)
  if (issues.length > 0) return { issues }
  return {
    value: Object.freeze({
      defaultTimeoutMs,
      maxTimeoutMs,
      maxStdoutBytes,
      maxStderrBytes,
      workdir: resolveWorkdir(workdirValue as string),
      envAllowList: Object.freeze([...(envAllowList as string[])]),
      env: Object.freeze({ ...(env as Record<string, string>) }),
      killGraceMs,
      sandbox,
    }),
  }
}

function resolveWorkdir(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path)
}

/**
 * The plugin's validated config schema (Standard Schema v1, checked by cordis before `apply`).
 * Unknown keys, non-integer or non-positive budgets, and `defaultTimeoutMs > maxTimeoutMs` are rejected.
 */
export const Config: StandardConfigSchema<BashConfigInput | undefined, BashConfig> =
  standardConfigSchema(resolveBashConfig)
