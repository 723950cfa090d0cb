import { homedir } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { type ConfigSchemaIssue, configSchema, type InferConfig } from '@dsh/tools-core'

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

const paths = { type: 'array', items: { type: 'string', minLength: 1 } } as const

/** The `sandbox` object of the plugin config (every field optional; `true` means all defaults). */
export const SANDBOX_OBJECT_SPEC = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean', default: true, description: '`false` is the same as `sandbox: false`' },
    fallback: {
      type: 'string',
      enum: ['refuse', 'unsandboxed'],
      default: 'refuse',
      description:
        "when the sandbox cannot run here: `'refuse'` fails every call, `'unsandboxed'` runs it without",
    },
    network: {
      type: 'string',
      enum: ['none', 'host'],
      default: 'none',
      description: "`'none'`: an empty network namespace (own loopback only); `'host'`: the host's network",
    },
    allowWrite: {
      ...paths,
      default: [],
      description: "writable directories besides `workdir` (and the call's private `TMPDIR`)",
    },
    denyRead: {
      ...paths,
      description:
        'paths hidden from the command (an empty mount); a given list replaces the default, `[os.homedir()]`',
    },
    maxScanEntries: {
      type: 'integer',
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      default: DEFAULT_MAX_SCAN_ENTRIES,
      description:
        'most entries the [protection scan](#protected-entries) reads in the writable roots, before and after each call; past it every call is refused (`BASH_PROTECTION_UNAVAILABLE`)',
    },
  },
} as const

/** The default read denies: the home directory, where dotfiles and credentials live (never `/`). */
function defaultDenyRead(): string[] {
  const home = homedir()
  return home === '' || home === '/' ? [] : [home]
}

const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(process.cwd(), path))

/** The sandbox settings of a validated `sandbox` object: paths absolute, the home default applied. */
export function finishSandboxConfig(sandbox: InferConfig<typeof SANDBOX_OBJECT_SPEC>): BashSandboxConfig {
  return Object.freeze({
    enabled: sandbox.enabled,
    fallback: sandbox.fallback,
    network: sandbox.network,
    allowWrite: Object.freeze(sandbox.allowWrite.map(absolute)),
    denyRead: Object.freeze((sandbox.denyRead ?? defaultDenyRead()).map(absolute)),
    maxScanEntries: sandbox.maxScanEntries,
  })
}

const SandboxSchema = configSchema(SANDBOX_OBJECT_SPEC, { resolve: finishSandboxConfig })

/** The settings of a `sandbox` value a validated config holds: a boolean (or nothing) means the defaults. */
export function sandboxSettings(
  sandbox: boolean | InferConfig<typeof SANDBOX_OBJECT_SPEC> | undefined,
): BashSandboxConfig {
  if (typeof sandbox === 'object') return finishSandboxConfig(sandbox)
  const result = SandboxSchema['~standard'].validate({ enabled: sandbox ?? true })
  if (result.issues) throw new Error('unreachable: the sandbox defaults are valid')
  return result.value
}

/**
 * Validate the `sandbox` key of the plugin config, pushing problems onto `issues`.
 *
 * @param input — the raw `sandbox` value (`undefined` means the defaults).
 * @param issues — collects validation problems (paths prefixed with `sandbox`).
 */
export function resolveSandboxConfig(input: unknown, issues: ConfigSchemaIssue[]): BashSandboxConfig {
  if (input === undefined || typeof input === 'boolean') return sandboxSettings(input)
  const result = SandboxSchema['~standard'].validate(input)
  if (result.issues === undefined) return result.value
  for (const issue of result.issues)
    issues.push({ message: `$.sandbox${issue.message.slice(1)}`, path: ['sandbox', ...(issue.path ?? [])] })
  return sandboxSettings(true)
}
