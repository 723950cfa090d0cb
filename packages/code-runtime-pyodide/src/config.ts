/**
 * {@link PyodideRuntimeConfig}, declared once in the schema DSL: the service's static `Config`
 * (cordis validates plugin config with it), the direct-use check, the JSON Schema and the
 * README's Config table. Issues are worded like argument errors, as in every runtime.
 */
import {
  type ConfigCheck,
  type ConfigSchema,
  checkConfig,
  configSchema,
  resolveConfig,
  runtimeConfigFields,
} from '@dsh/tools-codemode/runtime-kit'
import { PyodideRuntimeConfigError } from './errors'
import { CALL_LIMITS } from './run/call-limits'
import type { PyodideRuntimeConfig, ResolvedPyodideRuntimeConfig } from './types'

/** Standard-schema validator of {@link PyodideRuntimeConfig} (the service's static `Config`). */
export const PyodideRuntimeConfigSchema: ConfigSchema<
  PyodideRuntimeConfig | undefined,
  ResolvedPyodideRuntimeConfig
> = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...runtimeConfigFields({
      computeMs:
        'The host writes SIGINT to the interrupt buffer (the interpreter stops at the next bytecode) and terminates the worker in the same turn, so a program that catches `KeyboardInterrupt` ends too',
      maxOutputBytes:
        'Each line costs at least one byte; checked in the worker and again on the host. At most an eighth of `maxMemoryMb` applies (see [Memory budget](#memory-budget))',
      maxLogLines:
        'Checked in the worker — the line past the cap is not posted, and the thread ends at that line, so a flood costs the host at most `maxLogLines` messages and the worker no further work — and again on the host, whose count admits exactly `maxLogLines` lines whatever the worker posts',
      maxValueNodes:
        "Containers are lists and dicts (each dict entry's value counts); the worker scans the value's JSON text once (see [Values leaving the program](#values-leaving-the-program))",
      // The worker's encoders recurse once per level; `CALL_LIMITS.maxJsonDepth` is their ceiling.
      maxValueDepth: {
        maximum: CALL_LIMITS.maxJsonDepth,
        note: "The maximum is the kernel's encoder ceiling",
      },
      maxOldGenerationSizeMb: {
        minimum: 64,
        note: "Of the worker's JavaScript side; the heap's part of `maxMemoryMb` bounds it further",
      },
      // An interpreter holds 60–100 MB: fewer of them at once than the kit's defaults.
      maxConcurrentRuns: { default: 4 },
      warmWorkers: { default: 1, note: 'Each is a booted interpreter' },
    }),
    // A 32-bit WebAssembly memory holds at most 4 GiB. At least 128: the interpreter's part of the
    // budget (see memory-budget.ts) must hold the booted interpreter's ~30 MiB and leave room.
    maxMemoryMb: {
      type: 'integer',
      minimum: 128,
      maximum: 4095,
      default: 512,
      description:
        "the memory budget of one run, all of its parts together: the worker's JavaScript heap, the interpreter's WebAssembly memory, its in-memory files and its output (the split is under [Memory budget](#memory-budget)). An allocation past the interpreter's part is a Python `MemoryError`, a file write past it `OSError` (`ENOSPC`)",
    },
  },
})

/** Validate `input` without throwing. Unknown keys and non-integer or out-of-range values are issues. */
export function checkPyodideRuntimeConfig(input: unknown): ConfigCheck<ResolvedPyodideRuntimeConfig> {
  return checkConfig(PyodideRuntimeConfigSchema, input)
}

/** Validate `input` and apply the defaults; throws {@link PyodideRuntimeConfigError} listing every problem. */
export function resolvePyodideRuntimeConfig(
  input?: PyodideRuntimeConfig | null,
): ResolvedPyodideRuntimeConfig {
  return resolveConfig(PyodideRuntimeConfigSchema, input, (issues) => new PyodideRuntimeConfigError(issues))
}

/** The defaults {@link resolvePyodideRuntimeConfig} applies. */
export const DEFAULT_PYODIDE_RUNTIME_CONFIG: ResolvedPyodideRuntimeConfig = resolvePyodideRuntimeConfig()
