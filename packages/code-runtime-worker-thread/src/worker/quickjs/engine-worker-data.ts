/** What the host hands a QuickJS worker at spawn (`workerData`, structured-cloned). */
export interface EngineWorkerData {
  /**
   * The engine's WebAssembly: the module compiled once on the host and cloned to each worker
   * thread, or — for a worker in a process of its own (`isolation: 'process'`), which a compiled
   * module cannot reach over IPC — the `.wasm` bytes, compiled in the worker.
   */
  readonly wasm: { readonly module: WebAssembly.Module } | { readonly bytes: ArrayBuffer }
  /** The engine's allocation cap (`maxOldGenerationSizeMb` in bytes). */
  readonly memoryLimitBytes: number
  /** The engine's stack cap in bytes, below the WebAssembly stack the variant was built with. */
  readonly maxStackBytes: number
  /** Busy time after which the interrupt handler stops the engine. */
  readonly computeMs: number
  /** The reply slot (`protocol/reply-slot.ts`); absent in a run process, which cannot share memory with the host. */
  readonly replySlot?: SharedArrayBuffer
  /** The call slot (`protocol/call-slot.ts`); given exactly when `replySlot` is. */
  readonly callSlot?: SharedArrayBuffer
}
