import path from 'node:path'
import {
  type ConfigSchema,
  type ConfigSchemaIssue,
  type ConfigSchemaResult,
  configSchema,
  type InferConfigInput,
} from '@dsh/tools-core'
import { FS_TOOL_ERROR_CODES, FsToolError } from './errors'

/** The validated configuration of the fs tools plugin (every field filled in). */
export interface FsToolsConfig {
  /** Absolute workspace roots. Relative tool paths resolve against the first one. */
  readonly roots: readonly string[]
  /** Refuse `write`/`edit` of an existing file not read (via `read`) since its last change. */
  readonly requireReadBeforeWrite: boolean
  /** Default and maximum `limit` of `read` (lines per call). */
  readonly maxReadLines: number
  /** Lines longer than this many characters are cut, with a marker, in `read` and `grep` output. */
  readonly maxLineLength: number
  /** Maximum UTF-8 bytes of line text one `read` returns; the window ends early past it. */
  readonly maxReadBytes: number
  /**
   * Bytes of a file one `read` (or the line count of a replaced file in `write`) reads at
   * most; past it the line count is partial (`stoppedAt: 'maxReadScanBytes'`).
   */
  readonly maxReadScanBytes: number
  /** `edit` refuses files larger than this many bytes (`FILE_TOO_LARGE`): it loads them whole. */
  readonly maxEditBytes: number
  /** Maximum paths one `glob` returns (the rest are counted in `total`). */
  readonly maxGlobResults: number
  /** Maximum matching lines one `grep` returns (the rest are counted in `total`). */
  readonly maxGrepMatches: number
  /** `grep` skips files larger than this many bytes (reported in `skippedFiles`). */
  readonly maxGrepFileBytes: number
  /** Bytes of file text one `grep` searches; later files are skipped and the value says so. */
  readonly maxGrepTotalBytes: number
  /** Wall-clock budget of one `grep` in ms; past it the search worker is terminated. */
  readonly grepTimeoutMs: number
  /** Directory entries one `glob`/`grep` visits; the walk stops there and the value says so. */
  readonly maxWalkEntries: number
  /** Above this combined size of old + new text, diff cards carry no hunks (see README). */
  readonly maxDiffBytes: number
  /** Directory names `glob`/`grep` never descend into. */
  readonly ignoreDirectories: readonly string[]
}

/** Every budget is a positive safe integer. */
const budget = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const
const nonEmptyNames = { type: 'array', items: { type: 'string', minLength: 1 } } as const

/**
 * The plugin's config validator, a Standard Schema (v1) object as cordis expects, declared once
 * (also the JSON Schema and the README's Config table): it fills in defaults, resolves `roots`
 * to absolute paths (default: the working directory) and rejects unknown keys and bad values.
 */
export const Config: FsToolsConfigSchema = configSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      roots: {
        ...nonEmptyNames,
        minItems: 1,
        description:
          'workspace roots; each must exist (canonicalised with `realpath` at start). Default: `[process.cwd()]`',
      },
      requireReadBeforeWrite: {
        type: 'boolean',
        default: false,
        description: '`write`/`edit` refuse an existing file the agent has not read since its last change',
      },
      maxReadLines: { ...budget, default: 2000, description: 'default and maximum `read` window' },
      maxLineLength: { ...budget, default: 2000, description: 'characters per line in `read`/`grep` output' },
      maxReadBytes: {
        ...budget,
        default: 256 * 1024,
        description: 'UTF-8 bytes of line text per `read` (window ends early, ≥ 1 line)',
      },
      maxReadScanBytes: {
        ...budget,
        default: 64 * 1024 * 1024,
        description:
          "bytes one `read` reads at most (then `stoppedAt`); also bounds `write`'s old-line count",
      },
      maxEditBytes: {
        ...budget,
        default: 4 * 1024 * 1024,
        description: 'larger files are refused by `edit` (`FILE_TOO_LARGE`)',
      },
      maxGlobResults: { ...budget, default: 1000, description: 'paths per `glob`' },
      maxGrepMatches: { ...budget, default: 500, description: 'matching lines per `grep`' },
      maxGrepFileBytes: {
        ...budget,
        default: 4 * 1024 * 1024,
        description: 'larger files are skipped by `grep`',
      },
      maxGrepTotalBytes: {
        ...budget,
        default: 256 * 1024 * 1024,
        description: 'bytes of text one `grep` searches; later files are skipped (`stoppedAt`)',
      },
      grepTimeoutMs: {
        ...budget,
        default: 30_000,
        description: 'budget of one `grep`; past it the worker is terminated (`SEARCH_BUDGET_EXCEEDED`)',
      },
      maxWalkEntries: {
        ...budget,
        default: 200_000,
        description: 'directory entries one `glob`/`grep` visits before stopping (`stoppedAt`)',
      },
      maxDiffBytes: {
        ...budget,
        default: 1024 * 1024,
        description: 'above this (old + new), diffs carry counts but no hunks (`omitted: true`)',
      },
      ignoreDirectories: {
        ...nonEmptyNames,
        default: ['node_modules', '.git'],
        description: 'directory names `glob`/`grep` skip',
      },
    },
  },
  {
    resolve: (config) =>
      Object.freeze({
        ...config,
        roots: Object.freeze((config.roots ?? [process.cwd()]).map((root) => path.resolve(root))),
      }),
  },
)

/** What a user may pass as config: every field optional. */
export type FsToolsConfigInput = InferConfigInput<typeof Config>

/** A configuration problem in Standard Schema form (`$.maxReadLines: expected number >= 1, got 0`). */
export type FsToolsConfigIssue = ConfigSchemaIssue

/** The outcome of {@link validateFsToolsConfig}: the filled-in config, or the issues found. */
export type FsToolsConfigResult = ConfigSchemaResult<FsToolsConfig>

/** The Standard Schema (v1) shape of {@link Config}, which cordis validates plugin config with. */
export type FsToolsConfigSchema = ConfigSchema<
  { readonly [K in keyof FsToolsConfig]?: FsToolsConfig[K] } | undefined,
  FsToolsConfig
>

/**
 * Validate a raw config (`undefined` means all defaults). Returns the filled-in config or the
 * list of issues; never throws.
 */
export function validateFsToolsConfig(input: unknown): FsToolsConfigResult {
  return Config['~standard'].validate(input)
}

/** Defaults of every numeric/boolean config field. `roots` defaults to `[process.cwd()]`. */
export const FS_TOOLS_DEFAULTS: Omit<FsToolsConfig, 'roots'> = (() => {
  const { roots: _, ...defaults } = resolveFsToolsConfig(undefined)
  return Object.freeze(defaults)
})()

/**
 * Validate a raw config and return the filled-in one.
 * @throws {FsToolError} `INVALID_CONFIG` listing every issue.
 */
export function resolveFsToolsConfig(input: unknown): FsToolsConfig {
  const result = validateFsToolsConfig(input)
  if (result.issues === undefined) return result.value
  const messages = result.issues.map((issue) => issue.message).join('; ')
  throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_CONFIG, `invalid tool-fs config: ${messages}`)
}
