/**
 * The plugin config and its Standard Schema validator (cordis validates it before `apply`).
 */
import type { Plugin } from '@deepseek-ai/cordis'

/** Config of the Code Mode plugin (absent fields take {@link DEFAULT_CODE_MODE_CONFIG}). */
export interface CodeModeConfig {
  /**
   * How many concurrency-safe binding calls of one run may overlap (integer ≥ 1, default 10).
   * `1` restores serial dispatch.
   */
  readonly maxParallelSubCalls?: number
  /**
   * Most binding calls one run may make (integer ≥ 1, default 10,000). Every call the program
   * makes counts, refused ones included; later calls reject with a `ToolCallError` naming the
   * limit and never reach policy or a tool.
   */
  readonly maxSubCallsPerRun?: number
  /**
   * Most binding calls of one run submitted but not yet settled, queued or running (integer
   * ≥ 1, default 1,000). A call past it rejects with a `ToolCallError`; the run goes on.
   */
  readonly maxOutstandingSubCalls?: number
  /**
   * Most argument bytes of one run waiting in its queue (integer ≥ 1, default 64 MiB). A call's
   * size is its string code units (values and keys) plus one per JSON value, every occurrence
   * of a shared reference counted. A call that would start at once is not queued; one that would
   * take the queued total past the cap rejects with a `ToolCallError`.
   */
  readonly maxQueuedArgumentBytes?: number
  /**
   * Most JSON values in one call's arguments, every occurrence of a shared reference counted
   * (integer ≥ 1, default 20,000). Arguments handed over as JSON text are measured by one scan
   * before they are parsed; others are counted while they are read. Past it the call rejects at
   * once. The host's cost of a call (parse, snapshot, validation) grows with this count, not
   * with bytes (see `DEFAULT_JSON_SHAPE_LIMITS` in the runtime kit for the measurements).
   */
  readonly maxArgumentNodes?: number
  /**
   * Deepest nesting of arrays and objects in one call's arguments handed over as JSON text
   * (integer ≥ 1, default 100, under tools-core's `valueLimits.maxDepth` of 128), measured by the same scan before parsing.
   */
  readonly maxArgumentDepth?: number
  /**
   * Most string code units (values and keys) in one call's arguments, every occurrence counted
   * (integer ≥ 1, default 32 Mi = 33,554,432). Counted while the arguments are read.
   */
  readonly maxArgumentStringLength?: number
  /**
   * Milliseconds a finished run waits for its sub-calls that are still running after the run's
   * signal aborted (integer ≥ 1, default 5,000). A tool that ignores the abort would otherwise
   * hold `run_code` open forever, past every budget of the program; past this wait `run_code`
   * returns without it, and what the call later produces (its value, its additional contexts)
   * is dropped.
   */
  readonly subCallDrainMs?: number
}

/** The defaults applied to absent fields. */
export const DEFAULT_CODE_MODE_CONFIG: Required<CodeModeConfig> = Object.freeze({
  maxParallelSubCalls: 10,
  maxSubCallsPerRun: 10_000,
  maxOutstandingSubCalls: 1_000,
  maxQueuedArgumentBytes: 64 * 1024 * 1024,
  maxArgumentNodes: 20_000,
  maxArgumentDepth: 100,
  maxArgumentStringLength: 32 * 1024 * 1024,
  subCallDrainMs: 5_000,
})

type Key = keyof CodeModeConfig
const KEYS = Object.keys(DEFAULT_CODE_MODE_CONFIG) as Key[]

type Issue = { readonly message: string; readonly path?: readonly PropertyKey[] }

function check(input: unknown): { value: Required<CodeModeConfig> } | { issues: Issue[] } {
  if (input === undefined || input === null) return { value: DEFAULT_CODE_MODE_CONFIG }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { issues: [{ message: 'Code Mode config must be an object' }] }
  }
  const issues: Issue[] = []
  for (const key of Object.keys(input)) {
    if (!(KEYS as string[]).includes(key))
      issues.push({ message: `unknown config key ${JSON.stringify(key)}`, path: [key] })
  }
  const value: Record<string, number> = { ...DEFAULT_CODE_MODE_CONFIG }
  for (const key of KEYS) {
    const raw = (input as Record<string, unknown>)[key]
    if (raw === undefined) continue
    if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 1) value[key] = raw
    else issues.push({ message: `${key} must be an integer ≥ 1`, path: [key] })
  }
  if (issues.length > 0) return { issues }
  return { value: Object.freeze(value) as Required<CodeModeConfig> }
}

/**
 * Standard Schema validator of {@link CodeModeConfig}: absent fields take their defaults;
 * unknown keys and any limit that is not a safe integer ≥ 1 are rejected.
 */
export const CodeModeConfigSchema: NonNullable<Plugin.Base<CodeModeConfig>['Config']> = {
  '~standard': {
    version: 1,
    vendor: '@dsh/tools-codemode',
    validate: check,
  },
}
