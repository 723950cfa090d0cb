/**
 * The text form of a QuickJS worker's binding calls, carried by the call slot or a `calls-json`
 * message: the JSON text of `[id, name, [args] | [], …]` — arguments wrapped in a one-element
 * array, or an empty one for a call without arguments (JSON has no `undefined`). The worker
 * builds it by concatenation around the guest's own JSON text, so the worker never parses or
 * clones arguments; the host parses each batch once.
 *
 * The host reads it as hostile input: before parsing, one linear scan refuses nesting deeper
 * than {@link MAX_CALL_ARGUMENT_DEPTH} (deep text is slow to parse and to snapshot, and no tool
 * takes such arguments), and after parsing the shape is checked.
 */

/** The deepest argument nesting a call may carry (arrays and objects, counted from the arguments). */
export const MAX_CALL_ARGUMENT_DEPTH = 2_000

/** One call's entry in a batch (worker side). `argsJson` is JSON text, or `''` for no arguments. */
export function callBatchEntry(id: number, name: string, argsJson: string): string {
  return `${id},${JSON.stringify(name)},[${argsJson}]`
}

/** A batch of entries (worker side). */
export function callBatchText(entries: readonly string[]): string {
  return `[${entries.join(',')}]`
}

/** Whether JSON `text` nests arrays and objects more than `max` levels deep (strings skipped). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/** A parsed batch: flat `[id, name, args, …]` triples as a `calls` message carries them, or why not. */
export type ParsedCallBatch =
  | { readonly ok: true; readonly triples: unknown[] }
  | { readonly ok: false; readonly reason: string; readonly unreadable?: true }

/**
 * Parse a batch's text (host side). Never throws. Too-deep text is `unreadable` (the program's
 * own arguments caused it, as a message the host cannot deserialize); anything else malformed
 * is a protocol violation.
 */
export function parseCallBatch(text: string): ParsedCallBatch {
  // The batch array and the arguments' wrapper add two levels.
  if (jsonNestsDeeperThan(text, MAX_CALL_ARGUMENT_DEPTH + 2)) {
    return {
      ok: false,
      unreadable: true,
      reason: `tool arguments nested more than ${MAX_CALL_ARGUMENT_DEPTH} levels deep`,
    }
  }
  let batch: unknown
  try {
    batch = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'a call batch is not JSON text' }
  }
  if (!Array.isArray(batch) || batch.length === 0 || batch.length % 3 !== 0) {
    return { ok: false, reason: 'a call batch must carry [id, name, [args]] triples' }
  }
  for (let i = 2; i < batch.length; i += 3) {
    const wrapped: unknown = batch[i]
    if (!Array.isArray(wrapped) || wrapped.length > 1) {
      return { ok: false, reason: 'call arguments must be wrapped in an array of at most one item' }
    }
    batch[i] = wrapped.length === 0 ? undefined : wrapped[0]
  }
  return { ok: true, triples: batch }
}
