// Public API of @dsh/code-runtime-pyodide. Explicit named re-exports only; no logic here.
export {
  checkPyodideRuntimeConfig,
  DEFAULT_PYODIDE_RUNTIME_CONFIG,
  PyodideRuntimeConfigSchema,
  resolvePyodideRuntimeConfig,
} from './config'
export { isPyodideRuntimeError, PyodideRuntimeConfigError } from './errors'
export { type MemoryBudget, memoryBudget } from './memory-budget'
export { PyodideCodeRuntime, PyodideCodeRuntime as default } from './pyodide-code-runtime'
export { createPyodideRuntime, PyodideRuntime } from './pyodide-runtime'
export type {
  JsonValue,
  PyodideRuntimeConfig,
  PyodideRuntimeStats,
  ResolvedPyodideRuntimeConfig,
} from './types'
