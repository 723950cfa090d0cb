/**
 * The `ToolCallError` class programs see, on both engines: a binding call that failed for any
 * reason rejects with one, carrying only the tool's name and a message. Bundled into each
 * kernel, so it extends the `Error` of the realm the kernel runs in; each kernel makes its own.
 */
import { descriptor, intrinsics as I } from './intrinsics'

/** A `ToolCallError` constructor. */
export type ToolCallErrorClass = new (
  toolName: string,
  message: string,
) => Error & { readonly toolName: string }

/** Make the realm's `ToolCallError` class (`name` on the prototype, `toolName` on each instance). */
export function createToolCallErrorClass(): ToolCallErrorClass {
  class ToolCallError extends I.Error {
    declare readonly toolName: string
    constructor(toolName: string, message: string) {
      super(message)
      I.defineProperty(this, 'toolName', descriptor(I.String(toolName), true, true))
    }
  }
  I.defineProperty(ToolCallError.prototype, 'name', descriptor('ToolCallError', true, false))
  return ToolCallError
}
