import type { ConfigValidationResult } from './config-schema'
import { ToolRegistrationError } from './errors'
import { readValueLimits, type ValueLimits } from './pipeline/value-limits'
import { type ResultBudgetConfig, validateResultBudget } from './result-budget/config'
import { ResultBudget } from './result-budget/result-budget'
import type { ToolStateStore } from './store/tool-state-store'
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

/** The config's `formats` problem, if any (`undefined` is the default, `annotate`). */
export function formatsProblem(formats: unknown): string | undefined {
  if (formats === undefined || formats === 'annotate' || formats === 'assert') return undefined
  let shown: string
  try {
    shown = typeof formats === 'string' ? JSON.stringify(formats) : typeof formats
  } catch {
    shown = typeof formats
  }
  return `formats must be 'annotate' or 'assert' (got ${shown})`
}

/** The config's `disposeGraceMs` problem, if any (`undefined` is the default). */
export function graceProblem(grace: unknown): string | undefined {
  if (grace === undefined || (typeof grace === 'number' && Number.isFinite(grace) && grace > 0))
    return undefined
  return `disposeGraceMs must be a positive finite number of milliseconds (got ${typeof grace === 'number' ? grace : typeof grace})`
}

/** Every config key; `satisfies` makes a key added to the interface fail to compile until it is listed. */
const CONFIG_KEYS: readonly string[] = Object.keys({
  mode: true,
  resultBudget: true,
  formats: true,
  disposeGraceMs: true,
  valueLimits: true,
} satisfies Record<keyof ToolRuntimeConfig, true>)

export function validateConfig(value: unknown): ConfigValidationResult<ToolRuntimeConfig> {
  if (value === undefined || value === null) return { value: { mode: 'native' as const } }
  if (typeof value !== 'object' || Array.isArray(value))
    return { issues: [{ message: 'config must be an object' }] }
  // A misspelt key (`foramts`) would otherwise be ignored, and its setting silently off.
  const unknown = Object.keys(value).find((key) => !CONFIG_KEYS.includes(key))
  if (unknown !== undefined) {
    const message = `unknown config key ${JSON.stringify(unknown)} (the keys are ${CONFIG_KEYS.join(', ')})`
    return { issues: [{ message, path: [unknown] }] }
  }
  const mode = (value as ToolRuntimeConfig).mode ?? 'native'
  if (mode !== 'native' && mode !== 'code' && mode !== 'both') {
    return {
      issues: [{ message: `mode must be native, code or both (got ${String(mode)})`, path: ['mode'] }],
    }
  }
  const formats = formatsProblem((value as ToolRuntimeConfig).formats)
  if (formats !== undefined) return { issues: [{ message: formats, path: ['formats'] }] }
  const grace = graceProblem((value as ToolRuntimeConfig).disposeGraceMs)
  if (grace !== undefined) return { issues: [{ message: grace, path: ['disposeGraceMs'] }] }
  const limits = readValueLimits((value as ToolRuntimeConfig).valueLimits)
  if (Array.isArray(limits)) return { issues: limits }
  const budget = (value as ToolRuntimeConfig).resultBudget
  if (budget !== undefined) {
    const checked = validateResultBudget(budget)
    if (Array.isArray(checked)) return { issues: checked }
  }
  return { value: { ...(value as object), mode } }
}

/** The validated budget, keeping texts in the store `toolStore()` finds at each cut (if any). */
export function resolveBudget(
  config: ToolRuntimeConfig | undefined,
  toolStore?: () => ToolStateStore | undefined,
): ResultBudget | undefined {
  if (config?.resultBudget === undefined) return undefined
  const checked = validateResultBudget(config.resultBudget)
  if (Array.isArray(checked)) {
    throw new ToolRegistrationError(
      `invalid resultBudget: ${checked.map((issue) => issue.message).join('; ')}`,
    )
  }
  return new ResultBudget(checked, toolStore)
}
