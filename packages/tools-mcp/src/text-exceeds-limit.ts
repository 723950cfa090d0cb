import type { McpMessageLimits } from './message-limits'

const QUOTE = 34
const BACKSLASH = 92
const OPEN_OBJECT = 123
const OPEN_ARRAY = 91
const CLOSE_OBJECT = 125
const CLOSE_ARRAY = 93

/** Characters a number, `true`, `false` or `null` is made of. */
const SCALAR = new Uint8Array(128)
for (const char of '-+.0123456789eEtrufalsn') SCALAR[char.charCodeAt(0)] = 1

/**
 * Why JSON `text` exceeds `limits` (`maxNodes`, `maxDepth`; its length is the caller's), or
 * `undefined`. Counts what `exceededLimit` counts on the parsed value (values and keys, nesting)
 * by reading the text once, without building anything: a message of 300 000 keys is refused in
 * a few milliseconds instead of the quarter second `JSON.parse` spends building it. For text
 * that is not JSON the counts are approximate; `JSON.parse` refuses it afterwards.
 */
export function textExceedsLimit(text: string, limits: McpMessageLimits): string | undefined {
  const { maxNodes, maxDepth } = limits
  let nodes = 0
  let depth = 0
  let inScalar = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === QUOTE) {
      // A string (value or key): skip to its closing quote, escapes included.
      nodes++
      inScalar = false
      for (at++; at < text.length; at++) {
        const inner = text.charCodeAt(at)
        if (inner === BACKSLASH) at++
        else if (inner === QUOTE) break
      }
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      nodes++
      inScalar = false
      if (++depth > maxDepth) return `nested deeper than ${maxDepth} levels (maxDepth)`
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth--
      inScalar = false
    } else if (code < 128 && SCALAR[code] === 1) {
      if (!inScalar) nodes++
      inScalar = true
    } else inScalar = false
    if (nodes > maxNodes) return `more than ${maxNodes} JSON nodes (maxNodes)`
  }
  return undefined
}
