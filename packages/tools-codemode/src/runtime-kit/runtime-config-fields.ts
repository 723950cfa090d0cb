/**
 * The config fields every Code Mode runtime declares with the same key and meaning: one spec
 * fragment a runtime spreads into its `configSchema` spec, so a budget keeps one definition
 * however many engines there are. A runtime appends its engine's particulars to a field's
 * description, and may tune a default or a bound its engine needs (the kind and key stay).
 */
import { MAX_TIMER_MS } from './config-check'
import { DEFAULT_JSON_SHAPE_LIMITS } from './json-text-shape'

/** An integer field of a runtime's config, as the config DSL declares it. */
export interface RuntimeIntegerField {
  readonly type: 'integer'
  readonly minimum: number
  readonly maximum: number
  readonly default: number
  readonly description: string
}

/** How a runtime adapts one shared field: a note appended to its meaning, and its own default or bounds. */
export interface RuntimeFieldTuning {
  readonly note?: string
  readonly default?: number
  readonly minimum?: number
  readonly maximum?: number
}

/** One field: integer bounds, default and the meaning every runtime shares. */
const field = (
  minimum: number,
  maximum: number,
  fallback: number,
  description: string,
): RuntimeIntegerField => ({
  type: 'integer',
  minimum,
  maximum,
  default: fallback,
  description,
})

/** The shared fields, in the order a README table lists them. */
const SHARED = {
  computeMs: field(
    1,
    MAX_TIMER_MS,
    30_000,
    'busy time of the worker; time spent idle waiting for a tool call does not count, so a hot loop cannot hide behind a pending call → `timeout`',
  ),
  maxWallMs: field(
    1,
    MAX_TIMER_MS,
    300_000,
    'wall-clock time of the run, from the moment the program is sent → `timeout`',
  ),
  maxOutputBytes: field(
    1,
    Number.MAX_SAFE_INTEGER,
    64 * 1024 * 1024,
    "UTF-8 bytes of all log lines plus the completion payload (the result's JSON text, or the failure message) → `output-limit` (default 64 MiB)",
  ),
  maxLogLines: field(
    1,
    MAX_TIMER_MS,
    10_000,
    'log lines a run may print → `output-limit` (`output exceeded maxLogLines (10000 lines)`), with the first `maxLogLines` lines in its logs: the same key, default and meaning in every runtime',
  ),
  maxValueNodes: field(
    1,
    MAX_TIMER_MS,
    DEFAULT_JSON_SHAPE_LIMITS.maxNodes,
    "JSON values (every scalar and container; each member's value) in one value leaving the program: the run's result → `output-limit`, or one tool call's arguments → a `ToolCallError` in the program. Measured in the worker before the value is posted and again on the host before it is parsed",
  ),
  maxValueDepth: field(
    1,
    100_000,
    DEFAULT_JSON_SHAPE_LIMITS.maxDepth,
    'nesting of containers in such a value, measured by the same scan; same outcomes',
  ),
  maxOldGenerationSizeMb: field(
    16,
    1_048_576,
    256,
    "memory cap of a run, MiB: the worker's V8 old-generation heap (`resourceLimits`) → `worker-exit`",
  ),
  // A heavier engine tunes the two pool sizes down.
  maxConcurrentRuns: field(
    1,
    1024,
    8,
    'run workers alive at once (running, or exiting after their run settled); further runs wait in FIFO order (abortable)',
  ),
  warmWorkers: field(0, 64, 2, 'booted workers kept waiting for a program; 0 boots on demand'),
} as const satisfies Record<string, RuntimeIntegerField>

/** The fields {@link runtimeConfigFields} declares. */
export type RuntimeConfigFieldName = keyof typeof SHARED

/** Per field, a note (a string) or a {@link RuntimeFieldTuning}. */
export type RuntimeConfigFieldTuning = {
  readonly [K in RuntimeConfigFieldName]?: string | RuntimeFieldTuning
}

/**
 * The shared fields as config DSL specs — `computeMs` (default 30 s) and `maxWallMs` (5 min),
 * `maxOutputBytes` (64 MiB), `maxLogLines` (10,000), `maxValueNodes` / `maxValueDepth`
 * (`DEFAULT_JSON_SHAPE_LIMITS`), `maxOldGenerationSizeMb` (256), `maxConcurrentRuns` (8) and
 * `warmWorkers` (2) — each described by the meaning every runtime shares, then the runtime's note.
 *
 * @example
 * properties: {
 *   ...runtimeConfigFields({ computeMs: 'The engine is interrupted at once.', warmWorkers: { default: 1 } }),
 *   engine: { type: 'string', enum: ['a', 'b'], default: 'a' },
 * }
 */
export function runtimeConfigFields(tuning: RuntimeConfigFieldTuning = {}): {
  readonly [K in RuntimeConfigFieldName]: RuntimeIntegerField
} {
  const fields = {} as Record<RuntimeConfigFieldName, RuntimeIntegerField>
  for (const name of Object.keys(SHARED) as RuntimeConfigFieldName[]) {
    const shared: RuntimeIntegerField = SHARED[name]
    const own = tuning[name]
    const { note, ...bounds }: RuntimeFieldTuning = typeof own === 'string' ? { note: own } : (own ?? {})
    fields[name] = {
      type: 'integer',
      minimum: bounds.minimum ?? shared.minimum,
      maximum: bounds.maximum ?? shared.maximum,
      default: bounds.default ?? shared.default,
      description: note === undefined ? shared.description : `${shared.description}. ${note}`,
    }
  }
  return fields
}
