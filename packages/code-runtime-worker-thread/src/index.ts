// Public API of @dsh/code-runtime-worker-thread. Explicit named re-exports only; no logic here.
export {
  type ConfigCheck,
  type ConfigSchema,
  checkWorkerThreadRuntimeConfig,
  DEFAULT_WORKER_THREAD_RUNTIME_CONFIG,
  MAX_TIMER_MS,
  resolveWorkerThreadRuntimeConfig,
  WorkerThreadRuntimeConfigSchema,
} from './config'
export {
  isWorkerRuntimeError,
  WorkerRuntimeConfigError,
  WorkerRuntimeError,
  WorkerRuntimeErrorCode,
} from './errors'
export type {
  CodeEngine,
  JsonValue,
  ResolvedWorkerThreadRuntimeConfig,
  WorkerRuntimeStats,
  WorkerThreadRuntimeConfig,
} from './types'
export { WorkerThreadCodeRuntime, WorkerThreadCodeRuntime as default } from './worker-thread-code-runtime'
export { createWorkerThreadRuntime, WorkerThreadRuntime } from './worker-thread-runtime'
