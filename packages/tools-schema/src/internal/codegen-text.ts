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

/** A piece of literal text waiting on the preview stack. */
class Text {
  constructor(readonly text: string) {}
}

/** Own data value (accessors read as `undefined`, never invoked). */
function own(target: object, key: string | number): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key)
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
}

/**
 * Compact JSON text of an annotation value, cut at about `limit` characters (`…`), built with an
 * explicit stack that never holds more than `limit` members of one container, so a huge or
 * deeply nested default costs O(limit) work. Never invokes accessors; non-JSON leaves render as
 * `null`.
 */
export function previewJson(value: unknown, limit = 200): string {
  let out = ''
  const stack: unknown[] = [value]
  while (stack.length > 0 && out.length <= limit) {
    const item = stack.pop()
    if (item instanceof Text) {
      out += item.text
    } else if (Array.isArray(item)) {
      out += '['
      stack.push(new Text(']'))
      for (let i = Math.min(item.length, limit) - 1; i >= 0; i--) {
        stack.push(own(item, i))
        if (i > 0) stack.push(new Text(','))
      }
    } else if (typeof item === 'object' && item !== null) {
      const keys: string[] = []
      for (const key in item) {
        if (keys.length >= limit) break
        if (Object.hasOwn(item, key)) keys.push(key)
      }
      out += '{'
      stack.push(new Text('}'))
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(own(item, keys[i]!))
        stack.push(new Text(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else {
      const json =
        typeof item === 'string' ||
        typeof item === 'boolean' ||
        (typeof item === 'number' && Number.isFinite(item))
      out += json ? JSON.stringify(item) : 'null'
    }
  }
  return out.length > limit || stack.length > 0 ? `${out.slice(0, limit)}…` : out
}
