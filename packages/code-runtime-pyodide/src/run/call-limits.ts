/**
 * Per-run caps on binding calls and on the values crossing the port, applied before any work: a
 * program could otherwise expand a shared-reference structure into a huge JSON text, start calls
 * by the hundred thousand, or nest a value past what the encoders survive. The worker checks the argument size first (a clear
 * `ToolCallError`); the host checks again, since the port is hostile.
 */
export const CALL_LIMITS = Object.freeze({
  /** Largest JSON text of one call's arguments, in UTF-16 code units (4 Mi). */
  maxArgumentChars: 4 * 1024 * 1024,
  /** Calls forwarded to the host and not yet settled; later calls fail at once until some settle. */
  maxOutstandingCalls: 256,
  /**
   * Deepest nesting of lists and dicts in one call's arguments or in the result. The worker's
   * JSON encoders recurse once per level, on the interpreter's fixed WebAssembly stack: a deeper
   * value would overflow it (killing the interpreter) or, under a raised recursion limit, make
   * one encoding cost depth squared.
   */
  maxJsonDepth: 1000,
})
