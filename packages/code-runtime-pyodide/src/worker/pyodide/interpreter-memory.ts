/**
 * One count for the two kinds of memory an interpreter holds outside V8's heap cap: its
 * WebAssembly memory and the in-memory filesystem's file bytes (each file a JavaScript array of
 * its own). Both grow the host process, so they share one limit — the interpreter's part of
 * `maxMemoryMb` — instead of each having the whole cap to itself: `memory-cap.ts` refuses a grow
 * and `file-quota.ts` a file write that would take the two together past it.
 */

/** The interpreter's memory account. */
export interface InterpreterMemory {
  /** The limit of WebAssembly memory plus file bytes. */
  readonly limitBytes: number
  /** Bytes of WebAssembly memory, as of the last grow (or the boot). It never shrinks. */
  wasmBytes: number
  /** Bytes charged to files (see `file-quota.ts`). */
  fileBytes: number
}

/** A fresh account with nothing charged. */
export function createInterpreterMemory(limitBytes: number): InterpreterMemory {
  return { limitBytes, wasmBytes: 0, fileBytes: 0 }
}
