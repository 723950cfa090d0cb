/**
 * Validation of {@link WorkerThreadRuntimeConfig}: a plain function for direct use and a
 * standard-schema object that cordis applies to plugin config. The rules and their wording are
 * the runtime kit's, shared with every other runtime.
 */
import {
  checkOptions,
  choiceOption,
  createConfigSchema,
  DEFAULT_JSON_SHAPE_LIMITS,
  integerOption,
  type ConfigCheck as KitConfigCheck,
  MAX_TIMER_MS,
  type OptionRules,
  type StandardConfigSchema,
} from '@dsh/tools-codemode/runtime-kit'
import { WorkerRuntimeConfigError } from './errors'
import { MAX_SPIN_MICROS } from './protocol/reply-slot'
import type { CodeEngine, ResolvedWorkerThreadRuntimeConfig, WorkerThreadRuntimeConfig } from './types'

export { MAX_TIMER_MS, type StandardConfigSchema }

/** The defaults {@link resolveWorkerThreadRuntimeConfig} applies. */
export const DEFAULT_WORKER_THREAD_RUNTIME_CONFIG: ResolvedWorkerThreadRuntimeConfig = Object.freeze({
  engine: 'quickjs',
  computeMs: 30_000,
  maxWallMs: 300_000,
  maxOutputBytes: 64 * 1024 * 1024,
  maxLogLines: 10_000,
  maxValueNodes: DEFAULT_JSON_SHAPE_LIMITS.maxNodes,
  maxValueDepth: DEFAULT_JSON_SHAPE_LIMITS.maxDepth,
  maxOldGenerationSizeMb: 256,
  maxConcurrentRuns: 8,
  maxQueuedRuns: 1024,
  warmWorkers: 2,
  isolation: 'thread',
  hostSpinMicros: 30,
  workerSpinMicros: 50,
})

const rules: OptionRules<ResolvedWorkerThreadRuntimeConfig> = {
  engine: choiceOption(['quickjs', 'node-vm'] satisfies CodeEngine[]),
  computeMs: integerOption(1, MAX_TIMER_MS),
  maxWallMs: integerOption(1, MAX_TIMER_MS),
  maxOutputBytes: integerOption(1, Number.MAX_SAFE_INTEGER),
  maxLogLines: integerOption(1, MAX_TIMER_MS),
  maxValueNodes: integerOption(1, MAX_TIMER_MS),
  maxValueDepth: integerOption(1, 100_000),
  maxOldGenerationSizeMb: integerOption(16, 1_048_576),
  maxConcurrentRuns: integerOption(1, 1024),
  maxQueuedRuns: integerOption(0, 1_048_576),
  warmWorkers: integerOption(0, 64),
  isolation: choiceOption(['thread', 'process']),
  hostSpinMicros: integerOption(0, MAX_SPIN_MICROS),
  workerSpinMicros: integerOption(0, MAX_SPIN_MICROS),
}

/** Result of {@link checkWorkerThreadRuntimeConfig}: the resolved config, or every problem found. */
export type ConfigCheck = KitConfigCheck<ResolvedWorkerThreadRuntimeConfig>

/** Validate `input` without throwing. Unknown keys and non-integer or out-of-range values are issues. */
export function checkWorkerThreadRuntimeConfig(input: unknown): ConfigCheck {
  return checkOptions(input, DEFAULT_WORKER_THREAD_RUNTIME_CONFIG, rules)
}

/** Validate `input` and apply the defaults; throws {@link WorkerRuntimeConfigError} listing every problem. */
export function resolveWorkerThreadRuntimeConfig(
  input?: WorkerThreadRuntimeConfig | null,
): ResolvedWorkerThreadRuntimeConfig {
  const check = checkWorkerThreadRuntimeConfig(input)
  if (!check.ok) throw new WorkerRuntimeConfigError(check.issues)
  return check.value
}

/** Standard-schema validator of {@link WorkerThreadRuntimeConfig} (the service's static `Config`). */
export const WorkerThreadRuntimeConfigSchema: StandardConfigSchema<
  WorkerThreadRuntimeConfig | undefined,
  ResolvedWorkerThreadRuntimeConfig
> = createConfigSchema('@dsh/code-runtime-worker-thread', checkWorkerThreadRuntimeConfig)
