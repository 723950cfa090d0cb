import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff'

/** A file change as a unified patch: part of the `write`/`edit` values and their `diff` cards. */
export interface FileChange {
  /** Unified patch (file headers + hunks, 3 lines of context); hunk-less when `omitted`. */
  readonly patch: string
  /** Lines added. */
  readonly added: number
  /** Lines removed. */
  readonly removed: number
  /** True when the texts were too large (or too different) to diff; `added`/`removed` are then whole-file line counts. */
  readonly omitted: boolean
}

const MAX_EDIT_LENGTH = 10_000

/**
 * Diff two versions of a file with `diff` (jsdiff). Texts larger than `maxBytes` together,
 * needing more than 10,000 edit operations, or whose old text was not loaded (`{ lines }`: too
 * large or binary) are not diffed: the change is reported with whole-file line counts and no
 * hunks, so a huge rewrite never stalls the tool.
 */
export function fileDiff(
  displayPath: string,
  before: string | { readonly lines: number },
  after: string,
  maxBytes: number,
): FileChange {
  const headers = formatPatch(
    {
      oldFileName: displayPath,
      newFileName: displayPath,
      oldHeader: undefined,
      newHeader: undefined,
      hunks: [],
    },
    FILE_HEADERS_ONLY,
  )
  const omitted = {
    patch: headers,
    added: countLines(after),
    removed: typeof before === 'string' ? countLines(before) : before.lines,
    omitted: true,
  }
  if (typeof before !== 'string' || before.length + after.length > maxBytes) return omitted
  const structured = structuredPatch(displayPath, displayPath, before, after, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  })
  if (structured === undefined) return omitted
  let added = 0
  let removed = 0
  for (const hunk of structured.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++
      else if (line.startsWith('-')) removed++
    }
  }
  return { patch: formatPatch(structured, FILE_HEADERS_ONLY), added, removed, omitted: false }
}

function countLines(text: string): number {
  if (text.length === 0) return 0
  let lines = 0
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++
  return text.endsWith('\n') ? lines : lines + 1
}
