/**
 * A final result as an approval record keeps it, and back. A result is plain lossless JSON
 * already (the pipeline snapshotted its value, content and meta), so storing it is a copy of
 * its fields; reading it back refreezes it so a stored result is as immutable as a live one.
 */
import { type JsonValue, snapshotJson } from '@dsh/tools-schema'
import type { ToolExecutionResult } from '../types'

/** The JSON a record stores for `result`. */
export function storedResult(result: ToolExecutionResult): JsonValue {
  return JSON.parse(JSON.stringify(result)) as JsonValue
}

/** The frozen result a record stored, or `undefined` when what it holds is not a result. */
export function resultFromStore(stored: JsonValue | undefined): ToolExecutionResult | undefined {
  const candidate = stored as { isError?: unknown; content?: unknown } | null | undefined
  if (typeof candidate?.isError !== 'boolean' || !Array.isArray(candidate.content)) return undefined
  return snapshotJson(stored) as unknown as ToolExecutionResult
}
