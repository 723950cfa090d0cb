/**
 * The plugin config, declared once in the schema DSL: its validator (cordis validates it before
 * `apply`), its type, its JSON Schema and the README's Config table.
 */
import { configSchema, type InferConfig, type InferConfigInput } from '@dsh/tools-core'

/** Every limit is an integer ≥ 1 (and a safe integer, as the counters that compare with it are). */
const limit = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const

/**
 * Standard Schema validator of {@link CodeModeConfig}: absent fields take their defaults;
 * unknown keys and any limit that is not a safe integer ≥ 1 are rejected.
 */
export const CodeModeConfigSchema = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    maxParallelSubCalls: {
      ...limit,
      default: 10,
      description: 'How many concurrency-safe binding calls of one run may overlap. `1` = serial dispatch.',
    },
    maxSubCallsPerRun: {
      ...limit,
      default: 10_000,
      description:
        'Binding calls one run may make. Every call counts, refused ones included; later calls reject with `ToolCallError` and reach neither policy nor a tool.',
    },
    maxOutstandingSubCalls: {
      ...limit,
      default: 1_000,
      description:
        'Calls of one run submitted but not yet settled (queued or running). A call past it rejects with `ToolCallError`; the run goes on and may call again once earlier calls settle.',
    },
    maxQueuedArgumentBytes: {
      ...limit,
      default: 64 * 1024 * 1024,
      description:
        'Argument bytes of one run waiting in its queue (default 64 MiB). A call that starts at once is not queued; a call whose bytes would take the queued total past the cap rejects with `ToolCallError`.',
    },
    maxArgumentNodes: {
      ...limit,
      default: 20_000,
      description:
        "JSON values in one call's arguments, every occurrence of a shared reference counted. Arguments handed over as JSON text (`callJson`) are measured by one scan before they are parsed; others are counted while they are read. Past it the call rejects at once. The host's cost of a call grows with this count, not with bytes (see below).",
    },
    maxArgumentDepth: {
      ...limit,
      default: 100,
      description:
        "Nesting of arrays and objects in one call's arguments handed over as JSON text, measured by the same scan before parsing (under tools-core's `valueLimits.maxDepth` of 128).",
    },
    maxArgumentStringLength: {
      ...limit,
      default: 32 * 1024 * 1024,
      description:
        "String code units (UTF-16; values and keys) in one call's arguments, every occurrence counted (default 32 Mi).",
    },
    subCallDrainMs: {
      ...limit,
      default: 5_000,
      description:
        'Milliseconds a finished run waits for sub-calls still running after its signal aborted. A tool that ignores the abort would otherwise hold `run_code` open past every budget of the program; after the wait `run_code` returns without it, and whatever the call produces later (value, additional contexts) is dropped.',
    },
  },
})

/** Config of the Code Mode plugin as a user writes it (absent fields take their defaults). */
export type CodeModeConfig = InferConfigInput<typeof CodeModeConfigSchema>

/** The config filled in: every limit present. */
export type ResolvedCodeModeConfig = InferConfig<typeof CodeModeConfigSchema>

/** The defaults applied to absent fields. */
export const DEFAULT_CODE_MODE_CONFIG: ResolvedCodeModeConfig = (() => {
  const result = CodeModeConfigSchema['~standard'].validate({})
  if (result.issues) throw new Error('unreachable: the Code Mode defaults are valid')
  return result.value
})()
