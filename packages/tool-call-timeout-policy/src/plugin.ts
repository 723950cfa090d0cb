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
   * Whether a call's `exec.progress(...)` report restarts its full `timeoutMs` budget, so a long
   * body that keeps reporting is not cut off: `true` for every tool, `{ tools: [names] }` for
   * the named tools only (default `false`).
   */
  readonly resetTimeoutOnProgress?: boolean | { readonly tools: readonly string[] }
}

const RESET_KEY = 'resetTimeoutOnProgress'
const RESET_ISSUE = 'resetTimeoutOnProgress must be a boolean or { tools: [non-empty tool names] }'

type Reset = NonNullable<TimeoutPolicyConfig['resetTimeoutOnProgress']>

function resolveReset(value: unknown): Reset | undefined {
  if (value === undefined) return false
  if (typeof value === 'boolean') return value
  if (typeof value !== 'object' || value === null || Object.keys(value).some((key) => key !== 'tools'))
    return undefined
  const tools = (value as { tools?: unknown }).tools
  if (!Array.isArray(tools) || tools.length === 0) return undefined
  if (!tools.every((name) => typeof name === 'string' && name !== '')) return undefined
  return Object.freeze({ tools: Object.freeze([...(tools as string[])]) })
}

/** Validate a raw config and fill in the default; a validated config validates to itself. */
function validate(value: unknown): ConfigValidationResult<Required<TimeoutPolicyConfig>> {
  if (value === undefined || value === null) return { value: { resetTimeoutOnProgress: false } }
  if (typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ message: 'tool-call-timeout-policy config must be an object' }] }
  for (const key of Object.keys(value)) {
    if (key !== RESET_KEY) return { issues: [{ message: `unknown config key \`${key}\``, path: [key] }] }
  }
  const reset = resolveReset((value as TimeoutPolicyConfig).resetTimeoutOnProgress)
  if (reset === undefined) return { issues: [{ message: RESET_ISSUE, path: [RESET_KEY] }] }
  return { value: { resetTimeoutOnProgress: reset } }
}

/**
 * Validates {@link TimeoutPolicyConfig}: `undefined`, or
 * `{ resetTimeoutOnProgress?: boolean | { tools: string[] } }` (non-empty names).
 */
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
 * @param config — the (cordis-validated) config; validated again here, so a direct call is safe too.
 */
export function apply(ctx: Context, config?: TimeoutPolicyConfig): void {
  const checked = validate(config)
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
