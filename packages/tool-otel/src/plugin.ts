import type { Context } from '@deepseek-ai/cordis'
import { configSchema, type InferConfigInput } from '@dsh/tools-core'
import type { Tracer } from '@opentelemetry/api'
import { resolveTracer } from './resolve-tracer'
import { SpanTracker } from './span-tracker'

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-otel'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

const isTracer = (value: unknown): value is Tracer =>
  typeof value === 'object' && value !== null && typeof (value as Tracer).startSpan === 'function'

/** The plugin's config, declared once: validator, type, JSON Schema and README table. */
export const Config = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    tracer: {
      type: 'host',
      description: 'an OpenTelemetry Tracer (with startSpan)',
      is: isTracer,
    },
    capturePayloads: {
      type: 'boolean',
      default: false,
      description:
        'also record arguments, content, progress messages, failure messages (span status) and policy reasons',
    },
  },
})

/**
 * The plugin's config: `tracer` to record with (default: `@opentelemetry/api`'s global provider,
 * if an SDK is registered); `capturePayloads` records arguments, model-facing content and
 * progress messages on spans (default `false`: sizes only).
 */
export type ToolOtelConfig = InferConfigInput<typeof Config>

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
  const checked = Config['~standard'].validate(config)
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
