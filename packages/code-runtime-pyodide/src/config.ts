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
  DEFAULT_JSON_SHAPE_LIMITS,
  MAX_TIMER_MS,
} from '@dsh/tools-codemode/runtime-kit'
import { PyodideRuntimeConfigError } from './errors'
import { CALL_LIMITS } from './run/call-limits'
import type { PyodideRuntimeConfig, ResolvedPyodideRuntimeConfig } from './types'

const between = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const

/** Standard-schema validator of {@link PyodideRuntimeConfig} (the service's static `Config`). */
export const PyodideRuntimeConfigSchema: ConfigSchema<
  PyodideRuntimeConfig | undefined,
  ResolvedPyodideRuntimeConfig
> = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    computeMs: {
      ...between(1, MAX_TIMER_MS),
      default: 30_000,
      description:
        'busy time of the worker (waiting for a tool call does not count) → `timeout`. The host writes SIGINT to the interrupt buffer (the interpreter stops at the next bytecode) and terminates the worker in the same turn, so a program that catches `KeyboardInterrupt` ends too',
    },
    maxWallMs: {
      ...between(1, MAX_TIMER_MS),
      default: 300_000,
      description: 'wall time of the run, from the moment the program is sent → `timeout`',
    },
    maxOutputBytes: {
      ...between(1, Number.MAX_SAFE_INTEGER),
      default: 64 * 1024 * 1024,
      description:
        'UTF-8 bytes of all log lines — each line costs at least one byte — plus the completion payload → `output-limit` (default 64 MiB); checked in the worker and again on the host. At most an eighth of `maxMemoryMb` applies (see [Memory budget](#memory-budget))',
    },
    maxValueNodes: {
      ...between(1, MAX_TIMER_MS),
      default: DEFAULT_JSON_SHAPE_LIMITS.maxNodes,
      description:
        "JSON values (every scalar, list and dict; each dict entry's value) in one value leaving the program: the result → `output-limit`, or one tool call's arguments → `ToolCallError` in the program. Measured by one scan of the value's JSON text in the worker before it is posted, and again on the host before the host parses it (see [Values leaving the program](#values-leaving-the-program))",
    },
    // The worker's encoders recurse once per level; `CALL_LIMITS.maxJsonDepth` is their ceiling.
    maxValueDepth: {
      ...between(1, CALL_LIMITS.maxJsonDepth),
      default: DEFAULT_JSON_SHAPE_LIMITS.maxDepth,
      description:
        "nesting of lists and dicts in such a value, measured by the same scan; same outcomes. The maximum is the kernel's encoder ceiling",
    },
    maxLogLines: {
      ...between(1, MAX_TIMER_MS),
      default: 10_000,
      description:
        'log lines a run may print → `output-limit` (`output exceeded maxLogLines (10000 lines)`), with the first `maxLogLines` lines in its logs: the same key, default and meaning as in `@dsh/code-runtime-worker-thread`. Checked in the worker — the line past the cap is not posted, and the thread ends at that line, so a flood costs the host at most `maxLogLines` messages and the worker no further work — and again on the host, whose count admits exactly `maxLogLines` lines whatever the worker posts',
    },
    // A 32-bit WebAssembly memory holds at most 4 GiB. At least 128: the interpreter's part of the
    // budget (see memory-budget.ts) must hold the booted interpreter's ~30 MiB and leave room.
    maxMemoryMb: {
      ...between(128, 4095),
      default: 512,
      description:
        "the memory budget of one run, all of its parts together: the worker's JavaScript heap, the interpreter's WebAssembly memory, its in-memory files and its output (the split is under [Memory budget](#memory-budget)). An allocation past the interpreter's part is a Python `MemoryError`, a file write past it `OSError` (`ENOSPC`)",
    },
    maxOldGenerationSizeMb: {
      ...between(64, 1_048_576),
      default: 256,
      description:
        "V8 old-generation cap of the worker's JavaScript side (`resourceLimits`) → `worker-exit`; the heap's part of `maxMemoryMb` bounds it further",
    },
    maxConcurrentRuns: {
      ...between(1, 1024),
      default: 4,
      description:
        'run workers alive at once (running, or exiting); further runs wait in FIFO order (abortable)',
    },
    warmWorkers: {
      ...between(0, 64),
      default: 1,
      description: 'booted interpreters kept waiting; 0 boots on demand',
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
  const check = checkPyodideRuntimeConfig(input)
  if (!check.ok) throw new PyodideRuntimeConfigError(check.issues)
  return check.value
}

/** The defaults {@link resolvePyodideRuntimeConfig} applies. */
export const DEFAULT_PYODIDE_RUNTIME_CONFIG: ResolvedPyodideRuntimeConfig = resolvePyodideRuntimeConfig()
