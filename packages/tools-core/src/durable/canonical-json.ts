/**
 * Canonical JSON and its SHA-256: the one byte form that argument hashes, definition
 * fingerprints and approval signatures are computed over. Object keys are sorted by code unit,
 * so two processes that build the same value in different key orders hash it the same.
 */
import { createHash } from 'node:crypto'

/** `value` as JSON text with object keys sorted at every level (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value)
    // `undefined` members are dropped like JSON.stringify drops them; a bare one is `null`.
    return text === undefined ? 'null' : text
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const record = value as Record<string, unknown>
  const members: string[] = []
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue
    members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`)
  }
  return `{${members.join(',')}}`
}

/** Lower-case hex SHA-256 of a text (UTF-8). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
