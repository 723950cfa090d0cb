/**
 * The cap on the interpreter's WebAssembly memory (its heap lives there, outside V8's heap cap).
 * Emscripten grows its heap through `Memory#grow` and turns a throw into a failed `malloc`,
 * which Python reports as `MemoryError`.
 */

/** Bytes in one WebAssembly page. */
export const WASM_PAGE_BYTES = 65_536

type Grow = (this: object, pages: number) => number

// Captured at load: the worker's lockdown deletes the global before the program runs.
const SharedBuffer = SharedArrayBuffer
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!
const sharedBufferLength = Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength')!.get!

/**
 * A `grow` that refuses (throws `RangeError`) to take the memory past `limitBytes` and otherwise
 * calls the original `grow`. The buffer's size is read through the intrinsic getters captured
 * at load, so a later change to the prototypes cannot lie about it.
 */
export function cappedGrow(grow: Grow, limitBytes: number): Grow {
  return function capped(this: object, pages: number): number {
    const buffer = (this as { buffer: ArrayBuffer | SharedArrayBuffer }).buffer
    const size =
      buffer instanceof SharedBuffer ? sharedBufferLength.call(buffer) : arrayBufferLength.call(buffer)
    if (size + pages * WASM_PAGE_BYTES > limitBytes) throw new RangeError('memory cap reached')
    return grow.call(this, pages)
  }
}
