/**
 * Validation of {@link WorkerThreadRuntimeConfig}: a plain function for direct use and a
 * standard-schema object that cordis applies to plugin config.
 */
import { WorkerRuntimeConfigError } from './errors'
import type { CodeEngine, ResolvedWorkerThreadRuntimeConfig, WorkerThreadRuntimeConfig } from './types'

/** Largest delay a Node timer accepts (2^31 - 1 ms). */
export const MAX_TIMER_MS = 2_147_483_647

/** The defaults {@link resolveWorkerThreadRuntimeConfig} applies. */
export const DEFAULT_WORKER_THREAD_RUNTIME_CONFIG: ResolvedWorkerThreadRuntimeConfig = Object.freeze({
  engine: 'quickjs',
  computeMs: 30_000,
  maxWallMs: 300_000,
  maxOutputBytes: 64 * 1024 * 1024,
  maxLogLines: 10_000,
  maxOldGenerationSizeMb: 256,
  maxConcurrentRuns: 8,
  maxQueuedRuns: 1024,
  warmWorkers: 2,
  isolation: 'thread',
})

type NumericKey = Exclude<keyof ResolvedWorkerThreadRuntimeConfig, 'engine' | 'isolation'>

/** The keys whose value is one of a fixed set of names, with that set. */
const choices: Readonly<Record<'engine' | 'isolation', readonly string[]>> = {
  engine: ['quickjs', 'node-vm'] satisfies CodeEngine[],
  isolation: ['thread', 'process'],
}

const bounds: Record<NumericKey, readonly [min: number, max: number]> = {
  computeMs: [1, MAX_TIMER_MS],
  maxWallMs: [1, MAX_TIMER_MS],
  maxOutputBytes: [1, Number.MAX_SAFE_INTEGER],
  maxLogLines: [1, MAX_TIMER_MS],
  maxOldGenerationSizeMb: [16, 1_048_576],
  maxConcurrentRuns: [1, 1024],
  maxQueuedRuns: [0, 1_048_576],
  warmWorkers: [0, 64],
}

/** Result of {@link checkWorkerThreadRuntimeConfig}: the resolved config, or every problem found. */
export type ConfigCheck =
  | { readonly ok: true; readonly value: ResolvedWorkerThreadRuntimeConfig }
  | { readonly ok: false; readonly issues: readonly string[] }

/** Validate `input` without throwing. Unknown keys and non-integer or out-of-range values are issues. */
export function checkWorkerThreadRuntimeConfig(input: unknown): ConfigCheck {
  if (input === undefined || input === null) return { ok: true, value: DEFAULT_WORKER_THREAD_RUNTIME_CONFIG }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, issues: ['config must be an object'] }
  }
  const issues: string[] = []
  const value: Record<string, unknown> = { ...DEFAULT_WORKER_THREAD_RUNTIME_CONFIG }
  for (const key of Object.keys(input)) {
    const raw = (input as Record<string, unknown>)[key]
    if (key === 'engine' || key === 'isolation') {
      if (raw === undefined) continue
      const allowed = choices[key]
      if (allowed.includes(raw as string)) value[key] = raw
      else issues.push(`${key} must be one of ${allowed.map((name) => `"${name}"`).join(', ')}`)
      continue
    }
    if (!Object.hasOwn(bounds, key)) {
      issues.push(`unknown option "${key}"`)
      continue
    }
    if (raw === undefined) continue
    const [min, max] = bounds[key as NumericKey]
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
      issues.push(`${key} must be an integer between ${min} and ${max}`)
      continue
    }
    value[key] = raw
  }
  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, value: Object.freeze(value) as unknown as ResolvedWorkerThreadRuntimeConfig }
}

/** Validate `input` and apply the defaults; throws {@link WorkerRuntimeConfigError} listing every problem. */
export function resolveWorkerThreadRuntimeConfig(
  input?: WorkerThreadRuntimeConfig | null,
): ResolvedWorkerThreadRuntimeConfig {
  const check = checkWorkerThreadRuntimeConfig(input)
  if (!check.ok) throw new WorkerRuntimeConfigError(check.issues)
  return check.value
}

/** The subset of the Standard Schema v1 interface that cordis uses to validate plugin config. */
export interface StandardConfigSchema<Input, Output> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: readonly { readonly message: string }[] }
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
  }
}

/** Standard-schema validator of {@link WorkerThreadRuntimeConfig} (the service's static `Config`). */
export const WorkerThreadRuntimeConfigSchema: StandardConfigSchema<
  WorkerThreadRuntimeConfig | undefined,
  ResolvedWorkerThreadRuntimeConfig
> = Object.freeze({
  '~standard': Object.freeze({
    version: 1 as const,
    vendor: '@dsh/code-runtime-worker-thread',
    validate(value: unknown) {
      const check = checkWorkerThreadRuntimeConfig(value)
      return check.ok ? { value: check.value } : { issues: check.issues.map((message) => ({ message })) }
    },
  }),
})
