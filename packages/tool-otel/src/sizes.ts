import type { JsonValue, ToolContent } from '@dsh/tools-core'

/** UTF-8 bytes of a JSON value's serialization (arguments are lossless JSON snapshots). */
export function jsonBytes(value: JsonValue): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
}

/** Bytes of model-facing content: UTF-8 text plus the base64 length of image data. */
export function contentBytes(content: ToolContent): number {
  let total = 0
  for (const part of content) {
    total += part.type === 'text' ? Buffer.byteLength(part.text, 'utf8') : part.data.length
  }
  return total
}
