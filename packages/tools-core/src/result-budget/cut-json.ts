import {
  type HandleNote,
  itemsMarker,
  KEYS_MARKER_KEY,
  keysMarker,
  stringMarker,
  subtreeMarker,
} from './markers'
import { utf8Length } from './utf8'

/** Texts larger than this are cut as plain text: parsing them would cost more than it saves. */
export const MAX_JSON_PARSE_BYTES = 16 * 1024 * 1024

interface Limits {
  items: number
  keys: number
  chars: number
  depth: number
}

/** Slice `text` to at most `chars` code units without ending inside a surrogate pair. */
function safeEnd(text: string, chars: number): number {
  const code = text.charCodeAt(chars - 1)
  return code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars
}

function cutString(text: string, limits: Limits, note: HandleNote): string {
  if (text.length <= limits.chars) return text
  const half = Math.max(1, Math.floor(limits.chars / 2))
  const headEnd = safeEnd(text, half)
  let tailStart = text.length - half
  const code = text.charCodeAt(tailStart)
  if (code >= 0xdc00 && code <= 0xdfff) tailStart++
  return text.slice(0, headEnd) + stringMarker(tailStart - headEnd, note) + text.slice(tailStart)
}

function cutValue(value: unknown, limits: Limits, depth: number, note: HandleNote): unknown {
  if (typeof value === 'string') return cutString(value, limits, note)
  if (typeof value !== 'object' || value === null) return value
  // No size for a deep subtree: measuring it would recurse as deep as the input does.
  if (depth >= limits.depth) return subtreeMarker(undefined, note)
  if (Array.isArray(value)) {
    if (value.length <= limits.items) return value.map((item) => cutValue(item, limits, depth + 1, note))
    const head = Math.ceil(limits.items / 2)
    const tail = limits.items - head
    const out = value.slice(0, head).map((item) => cutValue(item, limits, depth + 1, note))
    out.push(itemsMarker(value.length - limits.items, note))
    for (const item of value.slice(value.length - tail)) out.push(cutValue(item, limits, depth + 1, note))
    return out
  }
  const keys = Object.keys(value)
  const out: Record<string, unknown> = {}
  const kept = Math.min(keys.length, limits.keys)
  for (let index = 0; index < kept; index++) {
    const key = keys[index]!
    // Own property definition: a `__proto__` key stays data, not a prototype change.
    Object.defineProperty(out, key, {
      value: cutValue((value as Record<string, unknown>)[key], limits, depth + 1, note),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  if (kept < keys.length && !(KEYS_MARKER_KEY in out))
    out[KEYS_MARKER_KEY] = keysMarker(keys.length - kept, note)
  return out
}

/**
 * Cut a parsed JSON document so its serialization fits `maxBytes`, keeping it valid JSON:
 * long arrays keep their first and last items around a marker item, objects keep their first
 * keys plus a `"…"` marker key, long strings keep head and tail around a marker, and subtrees
 * past a depth become a marker string. The limits halve (breadth first, depth last) until it fits; a document that
 * cannot fit at all becomes one marker string (still valid JSON). Kept leaves are the
 * original's; `indent` follows the original's layout (pretty when it had line breaks).
 */
export function cutJson(
  parsed: unknown,
  size: number,
  maxBytes: number,
  indent: number,
  note: HandleNote,
): string {
  // Start from limits the budget could plausibly hold, so the first pass is already small.
  const limits: Limits = {
    items: Math.max(2, Math.floor(maxBytes / 2)),
    keys: Math.max(2, Math.floor(maxBytes / 4)),
    chars: Math.max(16, maxBytes),
    depth: 64,
  }
  for (let round = 0; round < 64; round++) {
    const text = JSON.stringify(cutValue(parsed, limits, 0, note), null, indent)
    if (utf8Length(text) <= maxBytes) return text
    // Breadth first: fewer items, keys and characters; only then a shallower tree.
    const narrowest = limits.items <= 2 && limits.keys <= 2 && limits.chars <= 16
    if (narrowest && limits.depth <= 1) break
    if (narrowest) {
      limits.depth = Math.max(1, Math.floor(limits.depth / 2))
      continue
    }
    limits.items = Math.max(2, Math.floor(limits.items / 2))
    limits.keys = Math.max(2, Math.floor(limits.keys / 2))
    limits.chars = Math.max(16, Math.floor(limits.chars / 2))
  }
  return JSON.stringify(subtreeMarker(size, note))
}

/**
 * Parse `text` as a JSON object or array, or `undefined` when it is not one (a scalar stays
 * text: there is no structure to keep). Only texts that open with `{` or `[` are parsed.
 */
export function parseJsonDocument(text: string, size: number): unknown {
  if (size > MAX_JSON_PARSE_BYTES) return undefined
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
