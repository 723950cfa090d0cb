import { type HandleNote, textMarker } from './markers'
import { countLines, prefixEnd, suffixStart, utf8Length } from './utf8'

/**
 * Cut `text` (known to be `size` UTF-8 bytes) to at most `maxBytes`, keeping its head and its
 * tail around one marker that says how many bytes and lines were removed and where the full
 * text is. When even the marker does not fit, the result is the marker alone. The head ends
 * at a line break when one is near, so the model sees whole lines.
 */
export function cutText(text: string, size: number, maxBytes: number, note: HandleNote): string {
  if (size <= maxBytes) return text
  // The marker's numbers change its own length; size it with the largest numbers it can carry.
  const reserve = utf8Length(textMarker(size, text.length, note))
  const room = Math.max(0, maxBytes - reserve)
  let headEnd = prefixEnd(text, Math.ceil(room / 2))
  const newline = text.lastIndexOf('\n', headEnd - 1)
  if (newline >= 0 && headEnd - newline < 200 && newline + 1 < headEnd) headEnd = newline + 1
  const headBytes = utf8Length(text.slice(0, headEnd))
  const tailStart = suffixStart(text, room - headBytes, headEnd)
  const cutBytes = size - headBytes - utf8Length(text.slice(tailStart))
  const lines = countLines(text, headEnd, tailStart)
  return text.slice(0, headEnd) + textMarker(cutBytes, lines, note) + text.slice(tailStart)
}
