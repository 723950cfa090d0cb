import path from 'node:path'
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

/** What a user may pass as config: every field optional. */
export type FsToolsConfigInput = { readonly [K in keyof FsToolsConfig]?: FsToolsConfig[K] }

/** Defaults of every numeric/boolean config field. `roots` defaults to `[process.cwd()]`. */
export const FS_TOOLS_DEFAULTS = {
  requireReadBeforeWrite: false,
  maxReadLines: 2000,
  maxLineLength: 2000,
  maxReadBytes: 256 * 1024,
  maxReadScanBytes: 64 * 1024 * 1024,
  maxEditBytes: 4 * 1024 * 1024,
  maxGlobResults: 1000,
  maxGrepMatches: 500,
  maxGrepFileBytes: 4 * 1024 * 1024,
  maxGrepTotalBytes: 256 * 1024 * 1024,
  grepTimeoutMs: 30_000,
  maxWalkEntries: 200_000,
  maxDiffBytes: 1024 * 1024,
  ignoreDirectories: ['node_modules', '.git'],
} as const satisfies Omit<FsToolsConfig, 'roots'>

/** A configuration problem in Standard Schema form. */
export interface FsToolsConfigIssue {
  readonly message: string
  readonly path?: readonly PropertyKey[]
}

/** The outcome of {@link validateFsToolsConfig}: the filled-in config, or the issues found. */
export type FsToolsConfigResult =
  | { readonly value: FsToolsConfig; readonly issues?: undefined }
  | { readonly issues: readonly FsToolsConfigIssue[] }

/** The Standard Schema (v1) shape of {@link Config}, which cordis validates plugin config with. */
export interface FsToolsConfigSchema {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (input: unknown) => FsToolsConfigResult
    readonly types?: { readonly input: FsToolsConfigInput | undefined; readonly output: FsToolsConfig }
  }
}

/**
 * The plugin's config validator, a Standard Schema (v1) object as cordis expects: it fills in
 * defaults, resolves `roots` to absolute paths and rejects unknown keys and bad values.
 */
export const Config: FsToolsConfigSchema = {
  '~standard': { version: 1, vendor: 'dsh-tool-fs', validate: (input) => validateFsToolsConfig(input) },
}

const INTEGER_FIELDS = [
  'maxReadLines',
  'maxLineLength',
  'maxReadBytes',
  'maxReadScanBytes',
  'maxEditBytes',
  'maxGlobResults',
  'maxGrepMatches',
  'maxGrepFileBytes',
  'maxGrepTotalBytes',
  'grepTimeoutMs',
  'maxWalkEntries',
  'maxDiffBytes',
] as const

const KNOWN_FIELDS = new Set<string>([
  'roots',
  'requireReadBeforeWrite',
  'ignoreDirectories',
  ...INTEGER_FIELDS,
])

/**
 * Validate a raw config (`undefined` means all defaults). Returns the filled-in config or the
 * list of issues; never throws.
 */
export function validateFsToolsConfig(input: unknown): FsToolsConfigResult {
  const raw = input ?? {}
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { issues: [{ message: 'config must be an object' }] }
  const record = raw as Record<string, unknown>
  const issues: FsToolsConfigIssue[] = []
  for (const key of Object.keys(record)) {
    if (!KNOWN_FIELDS.has(key)) issues.push({ message: `unknown config key "${key}"`, path: [key] })
  }
  const roots = readStringList(record, 'roots', [process.cwd()], issues)
  if (roots.length === 0) issues.push({ message: 'roots must name at least one directory', path: ['roots'] })
  const ignoreDirectories = readStringList(
    record,
    'ignoreDirectories',
    FS_TOOLS_DEFAULTS.ignoreDirectories,
    issues,
  )
  const requireReadBeforeWrite = record.requireReadBeforeWrite ?? FS_TOOLS_DEFAULTS.requireReadBeforeWrite
  if (typeof requireReadBeforeWrite !== 'boolean') {
    issues.push({ message: 'requireReadBeforeWrite must be a boolean', path: ['requireReadBeforeWrite'] })
  }
  const numbers = {} as Record<(typeof INTEGER_FIELDS)[number], number>
  for (const field of INTEGER_FIELDS) {
    const value = record[field] ?? FS_TOOLS_DEFAULTS[field]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      issues.push({ message: `${field} must be a positive integer`, path: [field] })
    }
    numbers[field] = value as number
  }
  if (issues.length > 0) return { issues }
  return {
    value: Object.freeze({
      roots: Object.freeze(roots.map((root) => path.resolve(root))),
      requireReadBeforeWrite: requireReadBeforeWrite as boolean,
      ignoreDirectories: Object.freeze([...ignoreDirectories]),
      ...numbers,
    }),
  }
}

function readStringList(
  record: Record<string, unknown>,
  key: string,
  fallback: readonly string[],
  issues: FsToolsConfigIssue[],
): string[] {
  const value = record[key]
  if (value === undefined) return [...fallback]
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    issues.push({ message: `${key} must be an array of non-empty strings`, path: [key] })
    return []
  }
  return [...value]
}

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
