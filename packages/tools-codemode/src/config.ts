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
}

/** The defaults applied to absent fields. */
export const DEFAULT_CODE_MODE_CONFIG: Required<CodeModeConfig> = Object.freeze({ maxParallelSubCalls: 10 })

type Issue = { readonly message: string; readonly path?: readonly PropertyKey[] }

function check(input: unknown): { value: Required<CodeModeConfig> } | { issues: Issue[] } {
  if (input === undefined || input === null) return { value: DEFAULT_CODE_MODE_CONFIG }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { issues: [{ message: 'Code Mode config must be an object' }] }
  }
  const issues: Issue[] = []
  for (const key of Object.keys(input)) {
    if (key !== 'maxParallelSubCalls')
      issues.push({ message: `unknown config key ${JSON.stringify(key)}`, path: [key] })
  }
  const raw = (input as { maxParallelSubCalls?: unknown }).maxParallelSubCalls
  if (raw !== undefined && !(typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 1)) {
    issues.push({ message: 'maxParallelSubCalls must be an integer ≥ 1', path: ['maxParallelSubCalls'] })
  }
  if (issues.length > 0) return { issues }
  return { value: Object.freeze({ maxParallelSubCalls: (raw as number | undefined) ?? 10 }) }
}

/**
 * Standard Schema validator of {@link CodeModeConfig}: absent fields take their defaults,
 * unknown keys and a `maxParallelSubCalls` that is not an integer ≥ 1 are rejected.
 */
export const CodeModeConfigSchema: NonNullable<Plugin.Base<CodeModeConfig>['Config']> = {
  '~standard': {
    version: 1,
    vendor: '@dsh/tools-codemode',
    validate: check,
  },
}
