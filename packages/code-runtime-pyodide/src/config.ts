/**
 * Validation of {@link PyodideRuntimeConfig}: a plain function for direct use and a
 * standard-schema object that cordis applies to plugin config. The rules and their wording are
 * the runtime kit's, shared with every other runtime.
 */
import {
  type ConfigCheck,
  checkOptions,
  createConfigSchema,
  DEFAULT_JSON_SHAPE_LIMITS,
  integerOption,
  MAX_TIMER_MS,
  type OptionRules,
  type StandardConfigSchema,
} from '@dsh/tools-codemode/runtime-kit'
import { PyodideRuntimeConfigError } from './errors'
import { CALL_LIMITS } from './run/call-limits'
import type { PyodideRuntimeConfig, ResolvedPyodideRuntimeConfig } from './types'

/** The defaults {@link resolvePyodideRuntimeConfig} applies. */
export const DEFAULT_PYODIDE_RUNTIME_CONFIG: ResolvedPyodideRuntimeConfig = Object.freeze({
  computeMs: 30_000,
  maxWallMs: 300_000,
  maxOutputBytes: 64 * 1024 * 1024,
  maxValueNodes: DEFAULT_JSON_SHAPE_LIMITS.maxNodes,
  maxValueDepth: DEFAULT_JSON_SHAPE_LIMITS.maxDepth,
  maxLogLines: 10_000,
  maxMemoryMb: 512,
  maxOldGenerationSizeMb: 256,
  maxConcurrentRuns: 4,
  warmWorkers: 1,
})

const rules: OptionRules<ResolvedPyodideRuntimeConfig> = {
  computeMs: integerOption(1, MAX_TIMER_MS),
  maxWallMs: integerOption(1, MAX_TIMER_MS),
  maxOutputBytes: integerOption(1, Number.MAX_SAFE_INTEGER),
  maxValueNodes: integerOption(1, MAX_TIMER_MS),
  // The worker's encoders recurse once per level; `CALL_LIMITS.maxJsonDepth` is their ceiling.
  maxValueDepth: integerOption(1, CALL_LIMITS.maxJsonDepth),
  maxLogLines: integerOption(1, MAX_TIMER_MS),
  // A 32-bit WebAssembly memory holds at most 4 GiB. At least 128: the interpreter's part of the
  // budget (see memory-budget.ts) must hold the booted interpreter's ~30 MiB and leave room.
  maxMemoryMb: integerOption(128, 4095),
  maxOldGenerationSizeMb: integerOption(64, 1_048_576),
  maxConcurrentRuns: integerOption(1, 1024),
  warmWorkers: integerOption(0, 64),
}

/** Validate `input` without throwing. Unknown keys and non-integer or out-of-range values are issues. */
export function checkPyodideRuntimeConfig(input: unknown): ConfigCheck<ResolvedPyodideRuntimeConfig> {
  return checkOptions(input, DEFAULT_PYODIDE_RUNTIME_CONFIG, rules)
}

/** Validate `input` and apply the defaults; throws {@link PyodideRuntimeConfigError} listing every problem. */
export function resolvePyodideRuntimeConfig(
  input?: PyodideRuntimeConfig | null,
): ResolvedPyodideRuntimeConfig {
  const check = checkPyodideRuntimeConfig(input)
  if (!check.ok) throw new PyodideRuntimeConfigError(check.issues)
  return check.value
}

/** Standard-schema validator of {@link PyodideRuntimeConfig} (the service's static `Config`). */
export const PyodideRuntimeConfigSchema: StandardConfigSchema<
  PyodideRuntimeConfig | undefined,
  ResolvedPyodideRuntimeConfig
> = createConfigSchema('@dsh/code-runtime-pyodide', checkPyodideRuntimeConfig)
