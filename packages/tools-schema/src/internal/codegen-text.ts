/**
 * Joins with `+` instead of `Array#join`: V8 keeps `+` results as ropes, whereas `join` copies,
 * which would make deeply nested unions quadratic.
 */
export function concat(parts: readonly string[], separator: string): string {
  let out = parts[0] ?? ''
  for (let i = 1; i < parts.length; i++) out = out + separator + parts[i]
  return out
}

/** Drops repeated short alternatives (long texts are kept: hashing them would cost O(length)). */
export function dedupeShort(texts: readonly string[]): string[] {
  const seen = new Set<string>()
  return texts.filter((text) => {
    if (text.length > 200) return true
    if (seen.has(text)) return false
    seen.add(text)
    return true
  })
}
