/**
 * The `ToolCallError` class programs see, on both engines: a binding call that failed for any
 * reason rejects with one, carrying only the tool's name and a message. Bundled into each
 * kernel, so it extends the `Error` of the realm the kernel runs in; each kernel makes its own.
 */
import { descriptor, intrinsics as I } from './intrinsics'
import type { Pending } from './timer-args'

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

/**
 * Settle a pending binding call with its reply (both engines): status 0 resolves with the
 * primitive `a`, 1 with the value of the JSON text `a` (text that does not parse rejects), and
 * anything else rejects with a `ToolCallError` naming tool `a` with message `b`.
 */
export function settleReply(
  entry: Pending,
  status: number,
  a: unknown,
  b: unknown,
  ToolCallError: ToolCallErrorClass,
): void {
  if (status === 0) entry.resolve(a)
  else if (status === 1) {
    let value: unknown
    try {
      value = I.JSONParse(a as string)
    } catch {
      entry.reject(new ToolCallError('', 'the tool result could not be decoded'))
      return
    }
    entry.resolve(value)
  } else entry.reject(new ToolCallError(I.String(a), I.String(b)))
}
