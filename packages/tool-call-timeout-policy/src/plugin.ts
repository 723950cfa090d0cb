import type { Context } from '@deepseek-ai/cordis'
import { type ConfigValidationResult, standardConfigSchema } from '@dsh/tools-core'
import type { Deadline } from './deadline'
import { createTimeoutWrapper } from './timeout-wrapper'

/** The plugin's name (fiber diagnostics). */
export const name = 'tool-call-timeout-policy'

/** Services the plugin needs: the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

/** The plugin's config. */
export interface TimeoutPolicyConfig {
  /**
   * When `true`, every `exec.progress(...)` report of a call restarts its full `timeoutMs`
   * budget, so a long body that keeps reporting is not cut off (default `false`).
   */
  readonly resetTimeoutOnProgress?: boolean
}

function validate(value: unknown): ConfigValidationResult<Required<TimeoutPolicyConfig>> {
  if (value === undefined || value === null) return { value: { resetTimeoutOnProgress: false } }
  if (typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ message: 'tool-call-timeout-policy config must be an object' }] }
  for (const key of Object.keys(value)) {
    if (key !== 'resetTimeoutOnProgress')
      return { issues: [{ message: `unknown config key \`${key}\``, path: [key] }] }
  }
  const reset = (value as TimeoutPolicyConfig).resetTimeoutOnProgress ?? false
  if (typeof reset !== 'boolean') {
    return {
      issues: [{ message: 'resetTimeoutOnProgress must be a boolean', path: ['resetTimeoutOnProgress'] }],
    }
  }
  return { value: { resetTimeoutOnProgress: reset } }
}

/** Validates {@link TimeoutPolicyConfig}: `undefined`, or `{ resetTimeoutOnProgress?: boolean }`. */
export const Config = standardConfigSchema<TimeoutPolicyConfig | undefined, Required<TimeoutPolicyConfig>>(
  validate,
)

/**
 * Install the timeout wrapper on `tools/execute` in the calling context (global, or an agent
 * scope). Listener order is registration order: install it before a retry wrapper for one
 * deadline across all attempts, after it for a deadline per attempt. The listener ends with the
 * plugin's fiber. With `resetTimeoutOnProgress`, a `tools/progress` listener in the same
 * context restarts the deadline of the reporting call.
 *
 * @param ctx — the plugin context.
 * @param config — the validated config.
 */
export function apply(ctx: Context, config: TimeoutPolicyConfig = {}): void {
  if (config?.resetTimeoutOnProgress !== true) {
    ctx.on('tools/execute', createTimeoutWrapper(ctx))
    return
  }
  const active = new Map<symbol, Deadline>()
  ctx.on('tools/execute', createTimeoutWrapper(ctx, { active }))
  ctx.on('tools/progress', (execution) => {
    active.get(execution.token)?.reset()
  })
}
