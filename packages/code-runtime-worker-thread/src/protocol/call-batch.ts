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

/** One call of a batch in text form: `argsJson` is its arguments' JSON text, `undefined` for none. */
export interface CallBatchCall {
  readonly id: unknown
  readonly name: unknown
  readonly argsJson: string | undefined
}

/** A parsed batch, or why not. */
export type ParsedCallBatch =
  | { readonly ok: true; readonly calls: CallBatchCall[] }
  | { readonly ok: false; readonly reason: string; readonly unreadable?: true }

const MALFORMED = {
  ok: false,
  reason: 'a call batch is not JSON text of [id, name, [args]] triples',
} as const
const WRAPPER = {
  ok: false,
  reason: 'call arguments must be wrapped in an array of at most one item',
} as const

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/**
 * Parse a batch's text (host side). Never throws. Too-deep text is `unreadable` (the program's
 * own arguments caused it, as a message the host cannot deserialize); a malformed frame is a
 * protocol violation.
 *
 * One linear scan finds the batch's items and the wrapper of each call's arguments; only the ids
 * and names are parsed here. Each call's arguments stay JSON text, handed to the host as is
 * (`CodeRunHost.callJson`), which parses them once into a value it owns — instead of this module
 * parsing the whole batch and the host then copying every argument tree. Argument text that is
 * not JSON therefore fails its own call, not the batch.
 */
export function parseCallBatch(text: string): ParsedCallBatch {
  // Item boundaries at depth 1 (start, end) and, per item, commas at depth 2 (an arguments
  // wrapper with more than one item).
  const bounds: number[] = []
  const innerCommas: number[] = []
  let depth = 0
  let inString = false
  let itemStart = -1
  let commas = 0
  let closed = false
  let i = 0
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  if (text.charCodeAt(i) !== 0x5b) return MALFORMED
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
      continue
    }
    if (closed) {
      if (!isSpace(c)) return MALFORMED
      continue
    }
    if (depth === 1 && itemStart < 0 && !isSpace(c) && c !== 0x2c && c !== 0x5d) itemStart = i
    if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      // The batch array and the arguments' wrapper add two levels.
      if (++depth > MAX_CALL_ARGUMENT_DEPTH + 2) {
        return {
          ok: false,
          unreadable: true,
          reason: `tool arguments nested more than ${MAX_CALL_ARGUMENT_DEPTH} levels deep`,
        }
      }
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) {
        if (c !== 0x5d) return MALFORMED
        closed = true
        if (itemStart >= 0) {
          bounds.push(itemStart, i)
          innerCommas.push(commas)
        } else if (bounds.length > 0) return MALFORMED // a trailing comma
      }
    } else if (c === 0x2c) {
      if (depth === 1) {
        if (itemStart < 0) return MALFORMED // an empty item
        bounds.push(itemStart, i)
        innerCommas.push(commas)
        itemStart = -1
        commas = 0
      } else if (depth === 2) commas += 1
    }
  }
  if (!closed || inString) return MALFORMED
  const items = bounds.length / 2
  if (items === 0 || items % 3 !== 0)
    return { ok: false, reason: 'a call batch must carry [id, name, [args]] triples' }
  const calls: CallBatchCall[] = []
  for (let item = 0; item < items; item += 3) {
    const id = parseItem(text, bounds[item * 2]!, bounds[item * 2 + 1]!)
    const name = parseItem(text, bounds[item * 2 + 2]!, bounds[item * 2 + 3]!)
    if (id === MALFORMED || name === MALFORMED) return MALFORMED
    const argsJson = wrappedArguments(
      text,
      bounds[item * 2 + 4]!,
      bounds[item * 2 + 5]!,
      innerCommas[item + 2]!,
    )
    if (argsJson === null) return WRAPPER
    calls.push({ id, name, argsJson })
  }
  return { ok: true, calls }
}

/** An id or a name: a short JSON value, parsed here. */
function parseItem(text: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end))
  } catch {
    return MALFORMED
  }
}

/** The text inside an arguments wrapper `[…]`: `undefined` when empty, `null` when malformed. */
function wrappedArguments(
  text: string,
  start: number,
  end: number,
  commas: number,
): string | undefined | null {
  let last = end - 1
  while (last > start && isSpace(text.charCodeAt(last))) last--
  if (text.charCodeAt(start) !== 0x5b || text.charCodeAt(last) !== 0x5d || commas > 0) return null
  let from = start + 1
  while (from < last && isSpace(text.charCodeAt(from))) from++
  return from === last ? undefined : text.slice(from, last)
}
