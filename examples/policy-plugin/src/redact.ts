/**
 * Secret redaction over JSON values and content. Redacting the canonical value (not only the
 * content) matters: in Code Mode the program receives the value, never the content.
 */
import type { JsonValue, ToolContent } from '@dsh/tools-core'

/** `text` with every match of `patterns` replaced; `count` is how many were replaced. */
export function redactText(
  text: string,
  patterns: readonly RegExp[],
  replacement: string,
): { text: string; count: number } {
  let count = 0
  let result = text
  for (const pattern of patterns) {
    result = result.replace(pattern, (match) => {
      if (match === replacement) return match // already redacted by an earlier pattern
      count += 1
      return replacement
    })
  }
  return { text: result, count }
}

/** A copy of `value` with every string redacted (iterative, so deep values are fine). */
export function redactJson(
  value: JsonValue,
  patterns: readonly RegExp[],
  replacement: string,
): { value: JsonValue; count: number } {
  let count = 0
  const redactString = (text: string) => {
    const redacted = redactText(text, patterns, replacement)
    count += redacted.count
    return redacted.text
  }
  const copy = (input: JsonValue): JsonValue => {
    if (typeof input === 'string') return redactString(input)
    if (input === null || typeof input !== 'object') return input
    return Array.isArray(input) ? [...input] : { ...input }
  }
  const root = copy(value)
  const stack: JsonValue[] = [root]
  while (stack.length > 0) {
    const node = stack.pop() as { [key: string]: JsonValue } | JsonValue[]
    if (node === null || typeof node !== 'object') continue
    for (const key of Object.keys(node)) {
      const child = copy((node as Record<string, JsonValue>)[key] as JsonValue)
      ;(node as Record<string, JsonValue>)[key] = child
      if (child !== null && typeof child === 'object') stack.push(child)
    }
  }
  return { value: root, count }
}

/** `content` with secrets redacted from its text parts. */
export function redactContent(
  content: ToolContent,
  patterns: readonly RegExp[],
  replacement: string,
): { content: ToolContent; count: number } {
  let count = 0
  const parts = content.map((part) => {
    if (part.type !== 'text') return part
    const redacted = redactText(part.text, patterns, replacement)
    count += redacted.count
    return { type: 'text' as const, text: redacted.text }
  })
  return { content: parts, count }
}
