/**
 * Per-run caps on binding calls, applied before any work: a program could otherwise expand a
 * shared-reference structure into a huge JSON text, or start calls by the hundred thousand, and
 * make the host hold all of it. The worker checks the argument size first (a clear
 * `ToolCallError`); the host checks again, since the port is hostile.
 */
export const CALL_LIMITS = Object.freeze({
  /** Largest JSON text of one call's arguments, in UTF-16 code units (4 Mi). */
  maxArgumentChars: 4 * 1024 * 1024,
  /** Calls forwarded to the host and not yet settled; later calls fail at once until some settle. */
  maxOutstandingCalls: 256,
})
