/**
 * The cap on the interpreter's WebAssembly memory (its heap lives there, outside V8's heap cap).
 * Emscripten grows its heap through `Memory#grow` and turns a throw into a failed `malloc`,
 * which Python reports as `MemoryError`. The memory shares its limit with the in-memory files
 * (`interpreter-memory.ts`).
 */
import type { InterpreterMemory } from './interpreter-memory'

/** Bytes in one WebAssembly page. */
export const WASM_PAGE_BYTES = 65_536

type Grow = (this: object, pages: number) => number

// Captured at load: the worker's lockdown deletes the global before the program runs.
const SharedBuffer = SharedArrayBuffer
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!
const sharedBufferLength = Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength')!.get!

/** The byte size of a WebAssembly memory's buffer, read through the intrinsic getters. */
export function bufferBytes(buffer: unknown): number {
  return buffer instanceof SharedBuffer ? sharedBufferLength.call(buffer) : arrayBufferLength.call(buffer)
}

/**
 * A `grow` that refuses (throws `RangeError`) to take the memory, plus the file bytes charged to
 * `account`, past the account's limit, and otherwise calls the original `grow` and records the
 * new size. The buffer's size is read through the intrinsic getters captured at load, so a later
 * change to the prototypes cannot lie about it.
 */
export function cappedGrow(grow: Grow, account: InterpreterMemory): Grow {
  return function capped(this: object, pages: number): number {
    const after = bufferBytes((this as { buffer: unknown }).buffer) + pages * WASM_PAGE_BYTES
    if (after + account.fileBytes > account.limitBytes) throw new RangeError('memory cap reached')
    const previous = grow.call(this, pages)
    account.wasmBytes = after
    return previous
  }
}
