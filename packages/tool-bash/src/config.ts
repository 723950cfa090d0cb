import { isAbsolute, resolve } from 'node:path'
import { type ConfigSchema, type ConfigSchemaResult, configSchema } from '@dsh/tools-core'
import { DEFAULT_ENV_ALLOW_LIST } from './environment'
import {
  type BashSandboxConfig,
  type BashSandboxInput,
  SANDBOX_OBJECT_SPEC,
  sandboxSettings,
} from './sandbox-config'

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
   * Least time between two progress reports of a running command (ms, default 250). A command
   * that finishes sooner reports nothing.
   */
  readonly progressIntervalMs?: number
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
  readonly progressIntervalMs: number
  readonly sandbox: BashSandboxConfig
}

const integer = (minimum: number) => ({ type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER }) as const

/**
 * The plugin's validated config schema (Standard Schema v1, checked by cordis before `apply`),
 * declared once: also the JSON Schema and the README's Config table. Unknown keys, non-integer
 * or non-positive budgets, negative caps and `defaultTimeoutMs > maxTimeoutMs` are rejected.
 */
export const Config: ConfigSchema<BashConfigInput | undefined, BashConfig> = configSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      defaultTimeoutMs: {
        ...integer(1),
        default: 120_000,
        description: 'budget of a call without `timeoutMs`; must be ≤ `maxTimeoutMs`',
      },
      maxTimeoutMs: {
        ...integer(1),
        default: 600_000,
        description: "largest per-call budget, and the definition's declared `timeoutMs`",
      },
      maxStdoutBytes: { ...integer(0), default: 32_768, description: 'stdout cap in bytes' },
      maxStderrBytes: { ...integer(0), default: 32_768, description: 'stderr cap in bytes' },
      workdir: {
        type: 'string',
        minLength: 1,
        description: 'default working directory (made absolute); default `process.cwd()`',
      },
      envAllowList: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        default: [...DEFAULT_ENV_ALLOW_LIST],
        description: 'inherited host variables: exact names and `PREFIX*` patterns',
      },
      env: {
        type: 'record',
        values: { type: 'string' },
        default: {},
        description: 'variables set explicitly, whatever their name',
      },
      killGraceMs: {
        ...integer(0),
        default: 2_000,
        description: 'delay between SIGTERM and SIGKILL to the group',
      },
      progressIntervalMs: {
        ...integer(1),
        default: 250,
        description: 'least time between two progress reports of a running command',
      },
      sandbox: {
        description: 'the OS sandbox, on by default: `false` opts out, `true` or an object (below) opts in',
        anyOf: [{ type: 'boolean' }, SANDBOX_OBJECT_SPEC],
      },
    },
  },
  {
    check: (config) =>
      config.defaultTimeoutMs > config.maxTimeoutMs
        ? [{ path: ['defaultTimeoutMs'], message: `must not exceed maxTimeoutMs (${config.maxTimeoutMs})` }]
        : [],
    resolve: (config) =>
      Object.freeze({
        ...config,
        workdir: resolveWorkdir(config.workdir ?? process.cwd()),
        sandbox: sandboxSettings(config.sandbox),
      }),
  },
)

/** Defaults applied by {@link resolveBashConfig} (`workdir` defaults to `process.cwd()`). */
export const BASH_CONFIG_DEFAULTS = (() => {
  const result = resolveBashConfig(undefined)
  if (result.issues) throw new Error('unreachable: the bash defaults are valid')
  const { defaultTimeoutMs, maxTimeoutMs, maxStdoutBytes, maxStderrBytes, killGraceMs, progressIntervalMs } =
    result.value
  return Object.freeze({
    defaultTimeoutMs,
    maxTimeoutMs,
    maxStdoutBytes,
    maxStderrBytes,
    killGraceMs,
    progressIntervalMs,
  })
})()

/**
 * Validate a raw config and fill in defaults. `undefined` is the empty config. A resolved
 * config resolves to itself, so resolving twice is harmless.
 *
 * @param input — the raw plugin config.
 */
export function resolveBashConfig(input: unknown): ConfigSchemaResult<BashConfig> {
  return Config['~standard'].validate(input)
}

function resolveWorkdir(path: string): string {
  return isAbsolute(path) ? path : resolve(process.cwd(), path)
}
