/** What the host hands a QuickJS worker at spawn (`workerData`, structured-cloned). */
export interface EngineWorkerData {
  /** Absolute path of `quickjs-emscripten-core`'s CommonJS entry, resolved by the host. */
  readonly corePath: string
  /** Absolute path of the engine variant's CommonJS entry. */
  readonly variantPath: string
  /** The engine's WebAssembly module, compiled once on the host and cloned to each worker. */
  readonly wasmModule: WebAssembly.Module
  /** The engine's allocation cap (`maxOldGenerationSizeMb` in bytes). */
  readonly memoryLimitBytes: number
  /** The engine's stack cap in bytes, below the WebAssembly stack the variant was built with. */
  readonly maxStackBytes: number
  /** Busy time after which the interrupt handler stops the engine. */
  readonly computeMs: number
}
