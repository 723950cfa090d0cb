import type { Context } from '@deepseek-ai/cordis'
import { configSchema, type InferConfigInput } from '@dsh/tools-core'
import type { Deadline } from './deadline'
import { createTimeoutWrapper } from './timeout-wrapper'

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-call-timeout-policy'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/**
 * The plugin's config, declared once: validator, type, JSON Schema and README table.
 * `resetTimeoutOnProgress`: whether a call's `exec.progress(...)` report restarts its full
 * `timeoutMs` budget, so a long body that keeps reporting is not cut off.
 */
export const Config = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    resetTimeoutOnProgress: {
      description:
        '`true`: each `exec.progress(...)` of a call restarts its full `timeoutMs`; `{ tools: [names] }`: only those tools',
      default: false,
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            tools: {
              type: 'array',
              minItems: 1,
              items: { type: 'string', minLength: 1 },
              required: true,
              description: 'the tools whose progress restarts their deadline',
            },
          },
        },
      ],
    },
  },
})

/** The plugin's config as a user writes it. */
export type TimeoutPolicyConfig = InferConfigInput<typeof Config>

/**
 * Install the timeout wrapper on `tools/execute` in the calling context (global, or an agent
 * scope). Listener order is registration order: install it before a retry wrapper for one
 * deadline across all attempts, after it for a deadline per attempt. The listener ends with the
 * plugin's fiber. With `resetTimeoutOnProgress`, a `tools/progress` listener in the same
 * context restarts the deadline of the reporting call.
 *
 * @param ctx — the plugin context.
 * @param config — the (cordis-validated) config; validated again here, so a direct call is safe too.
 */
export function apply(ctx: Context, config?: TimeoutPolicyConfig): void {
  const checked = Config['~standard'].validate(config)
  if (checked.issues)
    throw new TypeError(`invalid tool-call-timeout-policy config: ${checked.issues[0]!.message}`)
  const reset = checked.value.resetTimeoutOnProgress
  if (reset === false) {
    ctx.on('tools/execute', createTimeoutWrapper(ctx))
    return
  }
  const only = reset === true ? undefined : new Set(reset.tools)
  const active = new Map<symbol, Deadline>()
  ctx.on('tools/execute', createTimeoutWrapper(ctx, { active }))
  ctx.on('tools/progress', (execution) => {
    if (only === undefined || only.has(execution.name)) active.get(execution.token)?.reset()
  })
}
