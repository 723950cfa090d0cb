/**
 * Cut `text` to `maxLength` characters (never splitting a surrogate pair) and append a
 * marker saying how long the line really is. `totalBytes` is the line's full UTF-8 size,
 * which may exceed what was decoded.
 */
export function truncateLine(text: string, maxLength: number, totalBytes = Buffer.byteLength(text)): string {
  if (text.length <= maxLength) return text
  let cut = text.slice(0, maxLength)
  const last = cut.charCodeAt(cut.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1)
  return `${cut}… [line truncated: ${totalBytes} bytes in total]`
}
