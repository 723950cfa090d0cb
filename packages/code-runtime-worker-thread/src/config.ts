/**
 * {@link WorkerThreadRuntimeConfig}, declared once in the schema DSL: the service's static
 * `Config` (cordis validates plugin config with it), the direct-use check, the JSON Schema and
 * the README's Config table. Issues are worded like argument errors, as in every runtime.
 */
import {
  type ConfigSchema,
  checkConfig,
  configSchema,
  DEFAULT_JSON_SHAPE_LIMITS,
  type ConfigCheck as KitConfigCheck,
  MAX_TIMER_MS,
} from '@dsh/tools-codemode/runtime-kit'
import { WorkerRuntimeConfigError } from './errors'
import { MAX_SPIN_MICROS } from './protocol/reply-slot'
import type { ResolvedWorkerThreadRuntimeConfig, WorkerThreadRuntimeConfig } from './types'

export { type ConfigSchema, MAX_TIMER_MS }

const between = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const

/** Standard-schema validator of {@link WorkerThreadRuntimeConfig} (the service's static `Config`). */
export const WorkerThreadRuntimeConfigSchema: ConfigSchema<
  WorkerThreadRuntimeConfig | undefined,
  ResolvedWorkerThreadRuntimeConfig
> = configSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    engine: {
      type: 'string',
      enum: ['quickjs', 'node-vm'],
      default: 'quickjs',
      description: 'the engine programs run in (see [Engines](#engines))',
    },
    computeMs: {
      ...between(1, MAX_TIMER_MS),
      default: 30_000,
      description:
        "busy time of the worker's event loop (program, microtasks, message handling, a blocked wait); time spent idle waiting for a tool call does not count, so a hot loop cannot hide behind a pending call → `timeout`",
    },
    maxWallMs: {
      ...between(1, MAX_TIMER_MS),
      default: 300_000,
      description: 'wall-clock time of the run → `timeout`',
    },
    maxOutputBytes: {
      ...between(1, Number.MAX_SAFE_INTEGER),
      default: 64 * 1024 * 1024,
      description:
        "UTF-8 bytes of all log lines plus the completion payload (the result's JSON text, or the failure message) → `output-limit` (default 64 MiB). Every line costs its bytes plus one (its line break), so empty lines count",
    },
    maxLogLines: {
      ...between(1, MAX_TIMER_MS),
      default: 10_000,
      description:
        'log lines a run may print → `output-limit`. Every consumer handles each line separately (Code Mode renders them all into the model-facing text), so a flood of tiny lines is bounded by count as well as by bytes. Both engines enforce it in the worker too, and batch a flood of lines',
    },
    maxValueNodes: {
      ...between(1, MAX_TIMER_MS),
      default: DEFAULT_JSON_SHAPE_LIMITS.maxNodes,
      description:
        "JSON values (every scalar, array and object; each object member's value) in one value leaving the program: the run's result → `output-limit`, or one tool call's arguments → a `ToolCallError` in the program. Measured in the worker before the value is posted and again on the host before it is parsed (see [Host-side limits](#host-side-limits))",
    },
    maxValueDepth: {
      ...between(1, 100_000),
      default: DEFAULT_JSON_SHAPE_LIMITS.maxDepth,
      description: 'nesting of arrays and objects in such a value, measured by the same scan; same outcomes',
    },
    maxOldGenerationSizeMb: {
      ...between(16, 1_048_576),
      default: 256,
      description:
        "memory cap of a run, MiB. `quickjs`: the engine's WebAssembly memory is capped at this plus 16 MiB of engine reserve — every object, string, ArrayBuffer and typed array — and running out throws `InternalError: out of memory` in the program (`exception` unless caught); the worker's V8 heap gets the same cap. `node-vm`: the worker's V8 old-generation heap cap → `worker-exit`",
    },
    maxConcurrentRuns: {
      ...between(1, 1024),
      default: 8,
      description:
        'run workers alive at once — warm (booted ahead of demand), running, or exiting after their run settled; a run that finds no warm worker and no free slot waits in FIFO order (abortable), up to `maxQueuedRuns`',
    },
    maxQueuedRuns: {
      ...between(0, 1_048_576),
      default: 1024,
      description:
        'runs that may wait for a slot; one more fails at once as `abort` with `the run queue is full: …` (no worker is spawned). 0: a run that finds no free slot is refused. A queued run whose signal aborts leaves the queue at once',
    },
    isolation: {
      type: 'string',
      enum: ['thread', 'process'],
      default: 'thread',
      description:
        "where each run's worker lives. `'process'`: in a fresh Node process per run that hosts the worker and relays the protocol over IPC, so a fatal V8 error ends that run as `worker-exit` (never the host), the process's resident memory — `ArrayBuffer`s included — is capped at `maxOldGenerationSizeMb` + 256 MiB (`worker-exit`), and a timeout kills (SIGKILL) even a builtin that cannot be interrupted. Costs a process boot per run (`warmWorkers` absorbs it) and about 40 MB RSS per live process; Linux and macOS",
    },
    warmWorkers: {
      ...between(0, 64),
      default: 2,
      description:
        'booted workers kept waiting for a program, as far as free `maxConcurrentRuns` slots allow (each holds one); 0 spawns on demand. Each idle worker costs about 15 MB RSS; more of them absorb longer bursts of back-to-back runs, which are otherwise bound by worker boot time',
    },
    hostSpinMicros: {
      ...between(0, MAX_SPIN_MICROS),
      default: 30,
      description:
        "µs the host's main thread may poll a `quickjs` run's call slot for the program's next call right after answering one, to take it without an event-loop wake (see [Spinning before sleeping](#spinning-before-sleeping)); 0 never polls",
    },
    workerSpinMicros: {
      ...between(0, MAX_SPIN_MICROS),
      default: 50,
      description:
        "µs a `quickjs` worker polls its reply slot before it blocks in `Atomics.wait`; busy time like the blocking, so it counts toward `computeMs` and toward the worker's blocking budget; 0 never polls",
    },
  },
})

/** Result of {@link checkWorkerThreadRuntimeConfig}: the resolved config, or every problem found. */
export type ConfigCheck = KitConfigCheck<ResolvedWorkerThreadRuntimeConfig>

/** Validate `input` without throwing. Unknown keys and non-integer or out-of-range values are issues. */
export function checkWorkerThreadRuntimeConfig(input: unknown): ConfigCheck {
  return checkConfig(WorkerThreadRuntimeConfigSchema, input)
}

/** Validate `input` and apply the defaults; throws {@link WorkerRuntimeConfigError} listing every problem. */
export function resolveWorkerThreadRuntimeConfig(
  input?: WorkerThreadRuntimeConfig | null,
): ResolvedWorkerThreadRuntimeConfig {
  const check = checkWorkerThreadRuntimeConfig(input)
  if (!check.ok) throw new WorkerRuntimeConfigError(check.issues)
  return check.value
}

/** The defaults {@link resolveWorkerThreadRuntimeConfig} applies. */
export const DEFAULT_WORKER_THREAD_RUNTIME_CONFIG: ResolvedWorkerThreadRuntimeConfig =
  resolveWorkerThreadRuntimeConfig()
