/**
 * {@link WorkerThreadRuntimeConfig}, declared once in the schema DSL: the service's static
 * `Config` (cordis validates plugin config with it), the direct-use check, the JSON Schema and
 * the README's Config table. Issues are worded like argument errors, as in every runtime.
 */
import {
  type ConfigSchema,
  checkConfig,
  configSchema,
  type ConfigCheck as KitConfigCheck,
  MAX_TIMER_MS,
  resolveConfig,
  runtimeConfigFields,
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
    ...runtimeConfigFields({
      computeMs:
        "The worker's event loop is busy running the program, its microtasks, message handling or a blocked wait",
      maxOutputBytes: 'Every line costs its bytes plus one (its line break), so empty lines count',
      maxLogLines:
        'Every consumer handles each line separately (Code Mode renders them all into the model-facing text), so a flood of tiny lines is bounded by count as well as by bytes. Both engines enforce it in the worker too, and batch a flood of lines',
      maxValueNodes: 'See [Host-side limits](#host-side-limits)',
      maxValueDepth: 'Containers are arrays and objects',
      maxOldGenerationSizeMb:
        "`quickjs` caps the engine's WebAssembly memory too, at this plus 16 MiB of engine reserve — every object, string, ArrayBuffer and typed array — and running out throws `InternalError: out of memory` in the program (`exception` unless caught)",
      maxConcurrentRuns:
        'Warm workers (booted ahead of demand) count too, and the wait is bounded by `maxQueuedRuns`',
      warmWorkers:
        'As far as free `maxConcurrentRuns` slots allow (each holds one). Each idle worker costs about 15 MB RSS; more of them absorb longer bursts of back-to-back runs, which are otherwise bound by worker boot time',
    }),
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
        "where each run's worker lives. `'process'`: in a fresh Node process per run that hosts the worker and relays the protocol over IPC, so a fatal V8 error ends that run as `worker-exit` (never the host), the run's heap is capped at `maxOldGenerationSizeMb` as a thread's is (the run process sets no process-wide V8 heap flag that would override it), the process's resident memory — `ArrayBuffer`s included — is capped at `maxOldGenerationSizeMb` + 256 MiB (`worker-exit`), and a timeout kills (SIGKILL) even a builtin that cannot be interrupted. Costs a process boot per run (`warmWorkers` absorbs it) and about 40 MB RSS per live process; Linux and macOS",
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
  return resolveConfig(
    WorkerThreadRuntimeConfigSchema,
    input,
    (issues) => new WorkerRuntimeConfigError(issues),
  )
}

/** The defaults {@link resolveWorkerThreadRuntimeConfig} applies. */
export const DEFAULT_WORKER_THREAD_RUNTIME_CONFIG: ResolvedWorkerThreadRuntimeConfig =
  resolveWorkerThreadRuntimeConfig()
