/**
 * UTF-8 sizes over UTF-16 strings without encoding them: budgets are in bytes, but slicing
 * happens at code-unit indices so a cut text is an exact substring of the original (a lone
 * surrogate counts 3 bytes, as `Buffer.byteLength` counts it after replacement).
 */

/** The UTF-8 size of `text`. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** Bytes of the code point starting at `index` and how many code units it spans. */
function stepForward(text: string, index: number): [bytes: number, units: number] {
  const code = text.charCodeAt(index)
  if (code < 0x80) return [1, 1]
  if (code < 0x800) return [2, 1]
  if (isHigh(code) && index + 1 < text.length && isLow(text.charCodeAt(index + 1))) return [4, 2]
  return [3, 1]
}

/** Bytes of the code point ending just before `end` and how many code units it spans. */
function stepBackward(text: string, end: number): [bytes: number, units: number] {
  const code = text.charCodeAt(end - 1)
  if (code < 0x80) return [1, 1]
  if (code < 0x800) return [2, 1]
  if (isLow(code) && end - 2 >= 0 && isHigh(text.charCodeAt(end - 2))) return [4, 2]
  return [3, 1]
}

/**
 * The end index of the longest prefix of `text` from `start` whose UTF-8 size is at most
 * `maxBytes`, never splitting a surrogate pair. Walks only the prefix it returns.
 */
export function prefixEnd(text: string, maxBytes: number, start = 0): number {
  let index = start
  let bytes = 0
  while (index < text.length) {
    const [size, units] = stepForward(text, index)
    if (bytes + size > maxBytes) break
    bytes += size
    index += units
  }
  return index
}

/** The start index of the longest suffix of `text` whose UTF-8 size is at most `maxBytes`. */
export function suffixStart(text: string, maxBytes: number, floor = 0): number {
  let index = text.length
  let bytes = 0
  while (index > floor) {
    const [size, units] = stepBackward(text, index)
    if (bytes + size > maxBytes || index - units < floor) break
    bytes += size
    index -= units
  }
  return index
}

/** Count `\n` in `text` between `start` and `end`. */
export function countLines(text: string, start: number, end: number): number {
  let count = 0
  let index = text.indexOf('\n', start)
  while (index !== -1 && index < end) {
    count++
    index = text.indexOf('\n', index + 1)
  }
  return count
}
