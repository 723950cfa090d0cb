/**
 * What a program receives of a settled binding call, bounded by what it can hold. A tool's value
 * and its failure are the host's (or an untrusted MCP server's) data, as unbounded as the
 * program's own: a value with shared references has a JSON text far larger than its memory, and
 * a 100 MB error message would only run the worker out of memory. Each runtime wraps these in
 * its own reply format and its own "too large" wording (which names its memory setting).
 */
import { cutToLimit } from './cut-to-limit'
import { jsonTextExceeds } from './json-text-bound'
import { type CallFailure, callFailureOf, encodeCallValue } from './run-outcome'

/** A value's reply text, or the size (as the "too large" message says it) of a text past the limit. */
export type BoundedValueText = { readonly text: string } | { readonly size: string }

/**
 * The JSON text of a call's `value` if it is at most `maxUnits` UTF-16 code units; `{ size }`
 * when it is longer (refused before any text is built when the count alone shows it, a cycle
 * too); `undefined` when it is not JSON (then answer with `nonJsonValueMessage`).
 */
export function boundedValueText(value: unknown, maxUnits: number): BoundedValueText | undefined {
  // Counted before it is built: `JSON.stringify` writes a shared part once per occurrence.
  let exceeds: boolean
  try {
    exceeds = jsonTextExceeds(value, maxUnits)
  } catch {
    // A getter or proxy trap of the host's value threw while it was measured: it is not JSON,
    // and thrown from here it would leave the program's call unanswered.
    return undefined
  }
  if (exceeds) return { size: `more than ${maxUnits}` }
  const text = encodeCallValue(value)
  if (text === undefined) return undefined
  // The count above is a lower bound (escapes are not counted): the built text is checked too.
  return text.length > maxUnits ? { size: String(text.length) } : { text }
}

/** A failed call's tool name and message only, each cut to `maxUnits` (see `callFailureOf`). */
export function boundedCallFailure(reason: unknown, toolName: string, maxUnits: number): CallFailure {
  const failure = callFailureOf(reason, toolName)
  return { toolName: cutToLimit(failure.toolName, maxUnits), message: cutToLimit(failure.message, maxUnits) }
}
