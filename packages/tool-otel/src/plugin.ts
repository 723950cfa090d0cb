import type { Context } from '@deepseek-ai/cordis'
import { type ConfigValidationResult, standardConfigSchema } from '@dsh/tools-core'
import type { Tracer } from '@opentelemetry/api'
import { resolveTracer } from './resolve-tracer'
import { SpanTracker } from './span-tracker'

/** The plugin's config. */
export interface ToolOtelConfig {
  /** The tracer to record with (default: `@opentelemetry/api`'s global provider, if an SDK is registered). */
  readonly tracer?: Tracer
  /** Record arguments, model-facing content and progress messages on spans (default `false`: sizes only). */
  readonly capturePayloads?: boolean
}

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-otel'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

const KEYS = new Set(['tracer', 'capturePayloads'])

function validate(value: unknown): ConfigValidationResult<ToolOtelConfig> {
  if (value === undefined || value === null) return { value: { capturePayloads: false } }
  if (typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ message: 'tool-otel config must be an object' }] }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!KEYS.has(key)) return { issues: [{ message: 'unknown config key', path: [key] }] }
  }
  const capturePayloads = record.capturePayloads ?? false
  if (typeof capturePayloads !== 'boolean')
    return { issues: [{ message: 'capturePayloads must be a boolean', path: ['capturePayloads'] }] }
  const tracer = record.tracer
  if (tracer === undefined) return { value: { capturePayloads } }
  if (typeof tracer !== 'object' || tracer === null || typeof (tracer as Tracer).startSpan !== 'function')
    return { issues: [{ message: 'tracer must be an OpenTelemetry Tracer', path: ['tracer'] }] }
  return { value: { tracer: tracer as Tracer, capturePayloads } }
}

/** Validates {@link ToolOtelConfig}: unknown keys, a non-boolean `capturePayloads` or a tracer without `startSpan` are rejected. */
export const Config = standardConfigSchema<ToolOtelConfig | undefined, ToolOtelConfig>(validate)

/**
 * Trace every tool call the calling context sees (all of them from a plain ctx, one agent's
 * from a scope ctx): one `execute_tool <name>` span per call with GenAI attributes, an event
 * per stage, sub-calls under their `run_code` span, the error code as status. Without a
 * configured tracer and without a registered SDK it installs nothing (zero cost).
 *
 * @param ctx — the plugin context.
 * @param config — the (cordis-validated) config; validated again here, so a direct call is safe too.
 */
export function apply(ctx: Context, config?: ToolOtelConfig): void {
  const checked = validate(config)
  if (checked.issues) throw new TypeError(`invalid tool-otel config: ${checked.issues[0]!.message}`)
  const tracer = resolveTracer(checked.value.tracer)
  if (tracer === undefined) return
  const tools = ctx.tools
  const tracker = new SpanTracker(tracer, {
    capturePayloads: checked.value.capturePayloads === true,
    describe: (execution) => tools.get(execution.name, execution.agent)?.description,
  })
  ctx.on('tools/stage', (execution, event) => tracker.stage(execution, event))
  ctx.on('tools/progress', (execution, update) => tracker.progress(execution, update))
  ctx.on('tools/result', (execution, result) => tracker.end(execution, result))
  ctx.effect(() => () => tracker.endAll(), 'tool-otel spans')
}

/** The plugin as one object, for `ctx.plugin(ToolOtel, config)`. */
const ToolOtel = { name, inject, Config, apply }
export default ToolOtel
