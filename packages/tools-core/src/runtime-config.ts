/**
 * The `ToolRuntime` config, declared once in the config DSL: its validator (cordis runs it on
 * `ToolRuntime.Config`), its JSON Schema and the README's Config table. The runtime resolves it
 * once, at construction; nothing on the execute path reads the raw config again.
 */
import { type ConfigSchema, configSchema, type InferConfig, type InferConfigInput } from '@dsh/tools-schema'
import { ToolRegistrationError } from './errors'
import { DEFAULT_DISPOSE_GRACE_MS } from './lifetime/call-lifetimes'
import { type ValueLimits, valueLimitsSpec } from './pipeline/value-limits'
import { type ResultBudgetConfig, resultBudgetSpec } from './result-budget/config'
import type { ToolPresentationMode } from './types'

/** Config of the `ToolRuntime` service. */
export interface ToolRuntimeConfig {
  /** How tools are presented to agents that did not `presentAs()`: default `native`. */
  mode?: ToolPresentationMode
  /**
   * Cap model-facing content of top-level results (after `finalizeContent`), keeping the full
   * text behind a handle that the built-in `read_result` tool pages through. Off by default.
   */
  resultBudget?: ResultBudgetConfig
  /**
   * `'annotate'` (default): JSON Schema `format` is an annotation. `'assert'`: every tool's
   * `parameters` and `output.schema` registered with this runtime check date-time, date, time,
   * duration, email, hostname, ipv4, ipv6, uri, uri-reference, uuid and regex (other format
   * names stay annotations), so a violating argument is `INVALID_ARGS` and a violating value
   * `INVALID_OUTPUT`.
   */
  formats?: 'annotate' | 'assert'
  /**
   * How long (ms) a call ended by a disposal — of the runtime, the context that made the call,
   * the plugin that registered its tool, or its agent scope — may take to unwind before its
   * caller gets `ABORTED` anyway (default 1000; the body's signal aborts at once, a body that
   * honours it ends sooner). A positive finite number.
   */
  disposeGraceMs?: number
  /**
   * Bounds of model arguments (`INVALID_ARGS` past one) and tool results (`INVALID_OUTPUT`),
   * checked in the one pass that snapshots them, before validation. Each key defaults to
   * {@link DEFAULT_VALUE_LIMITS}: 500,000 values, 128 levels, 16 Mi string code units.
   */
  valueLimits?: Partial<ValueLimits>
}

/** The spec; `ToolRuntimeConfig` above is its input side (checked below), written out for its TSDoc. */
const spec = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['native', 'code', 'both'],
      default: 'native',
      description: 'how tools are presented to agents that did not `presentAs()`',
    },
    resultBudget: resultBudgetSpec,
    formats: {
      type: 'string',
      enum: ['annotate', 'assert'],
      default: 'annotate',
      description: 'whether JSON Schema `format` is checked (`assert`) or an annotation; see below',
    },
    disposeGraceMs: {
      type: 'number',
      exclusiveMinimum: 0,
      default: DEFAULT_DISPOSE_GRACE_MS,
      description:
        'ms a call ended by a disposal may take to unwind before its caller gets `ABORTED` anyway; see [Disposal](#disposal)',
    },
    valueLimits: valueLimitsSpec,
  },
} as const

/** The config as the runtime gets it: every key but `resultBudget` filled in, frozen. */
export type ResolvedToolRuntimeConfig = InferConfig<typeof spec>

/**
 * Standard Schema (v1) validator of {@link ToolRuntimeConfig}, with its JSON Schema
 * (`~standard.jsonSchema.input` / `.output`): fills defaults, refuses unknown keys and bad values
 * with issues such as `$.resultBudget.maxContentBytes: expected number >= 256, got 10`.
 */
export const ToolRuntimeConfigSchema: ConfigSchema<ToolRuntimeConfig | undefined, ResolvedToolRuntimeConfig> =
  configSchema(spec)

// The written-out interface and the spec's input side are one type: a key added to one and not
// the other, or typed differently, fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameConfig: Same<Required<ToolRuntimeConfig>, Required<InferConfigInput<typeof spec>>> = true
void sameConfig

/**
 * The validated config: `config` as cordis passes it (already validated, so this is idempotent)
 * or as a caller constructing the runtime directly wrote it.
 * @throws {ToolRegistrationError} `invalid config: …` listing every issue.
 */
export function resolveRuntimeConfig(config: ToolRuntimeConfig | undefined): ResolvedToolRuntimeConfig {
  const result = ToolRuntimeConfigSchema['~standard'].validate(config)
  if (result.issues === undefined) return result.value
  throw new ToolRegistrationError(`invalid config: ${result.issues.map((issue) => issue.message).join('; ')}`)
}
