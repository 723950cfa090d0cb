import type { JsonValue, ToolResultRecord, ToolResultView } from '@dsh/tools-core'
import { metaRecord } from '../internal/meta'

/** Output schema of the `diff` member of the `write` and `edit` values (see `FileChange`). */
export const fileChangeSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    patch: { type: 'string', required: true, description: 'Unified patch of the change.' },
    added: { type: 'integer', required: true },
    removed: { type: 'integer', required: true },
    omitted: {
      type: 'boolean',
      required: true,
      description: 'True when the patch has no hunks (file too large).',
    },
  },
} as const

/**
 * The `diff` result card of `write`/`edit`, built from their persisted meta
 * (`{ path, patch, added, removed, created? }`); `undefined` (generic card) on failure or
 * unusable meta.
 */
export function presentChange(
  record: ToolResultRecord,
  meta: JsonValue | undefined,
  verb: (created: boolean) => string,
): ToolResultView | undefined {
  const change = metaRecord(meta)
  if (record.isError || change === undefined) return undefined
  const { path, patch, added, removed } = change
  if (
    typeof path !== 'string' ||
    typeof patch !== 'string' ||
    typeof added !== 'number' ||
    typeof removed !== 'number'
  ) {
    return undefined
  }
  return {
    card: 'diff',
    title: `${verb(change.created === true)} ${path}`,
    diffs: [{ path, patch, added, removed }],
  }
}
