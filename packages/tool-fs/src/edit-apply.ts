import { FS_TOOL_ERROR_CODES, FsToolError } from './errors'

/** The outcome of {@link applyEdit}. */
export interface AppliedEdit {
  /** The new file text, BOM and line endings preserved. */
  readonly content: string
  /** How many occurrences were replaced (1 unless `replaceAll`). */
  readonly replacements: number
}

/** Arguments of {@link applyEdit}; `label` names the file in error messages. */
export interface EditRequest {
  readonly oldString: string
  readonly newString: string
  readonly replaceAll: boolean
  readonly label: string
  /**
   * The edited text may hold at most this many UTF-16 code units (a lower bound on its UTF-8
   * bytes); checked before it is built. Default: no bound.
   */
  readonly maxLength?: number
}

/**
 * `replace_all` replaces at most this many occurrences. Building the result costs time in
 * proportion to the count, on the calling thread: 16 million one-character replacements in a
 * 16 MiB file block it for seconds; 10,000 cost a few milliseconds.
 */
export const MAX_EDIT_REPLACEMENTS = 10_000

const BOM = '\uFEFF'

/**
 * Replace a literal string in a file's text (no regex, `$` is not special).
 *
 * - A UTF-8 BOM is kept and never matched against.
 * - In a file whose line endings are mostly CRLF, `new_string`'s bare LFs become CRLF, and an
 *   `old_string` written with LF also matches the CRLF text. A literal match is tried first,
 *   so mixed files keep every line ending they had outside the replaced span.
 * - `old_string` must occur exactly once unless `replaceAll`.
 * @throws {FsToolError} `EDIT_NO_CHANGE`, `EDIT_NOT_FOUND`, `EDIT_NOT_UNIQUE`.
 */
export function applyEdit(original: string, request: EditRequest): AppliedEdit {
  const { oldString, newString, replaceAll, label } = request
  if (oldString.length === 0) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.EDIT_NO_CHANGE,
      'old_string must not be empty (use write to create or overwrite a whole file)',
    )
  }
  if (oldString === newString) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.EDIT_NO_CHANGE,
      'old_string and new_string are identical; nothing to do',
    )
  }
  const bom = original.startsWith(BOM) ? BOM : ''
  const body = original.slice(bom.length)
  const crlf = usesCrlf(body)
  const replacement = crlf ? toCrlf(newString) : newString
  const candidates = crlf && oldString.includes('\n') ? [oldString, toCrlf(oldString)] : [oldString]
  for (const candidate of candidates) {
    // Counting stops past the bound: the count of millions of matches is not worth the time.
    const count = countOccurrences(body, candidate, MAX_EDIT_REPLACEMENTS + 1)
    if (count === 0) continue
    if (count > 1 && !replaceAll) {
      throw new FsToolError(
        FS_TOOL_ERROR_CODES.EDIT_NOT_UNIQUE,
        `old_string occurs ${timesText(count)} in ${label}; add surrounding context to make it unique, or set replace_all to replace every occurrence`,
      )
    }
    assertEditBounded(body.length, count, candidate.length, replacement.length, request)
    const content = replaceAll
      ? body.split(candidate).join(replacement)
      : replaceFirst(body, candidate, replacement)
    return { content: bom + content, replacements: count }
  }
  throw new FsToolError(
    FS_TOOL_ERROR_CODES.EDIT_NOT_FOUND,
    `old_string was not found in ${label}; it must match the file exactly, including whitespace and indentation (read the file again to copy the current text)`,
  )
}

/** True when CRLF line endings are at least as common as bare LF ones (and present). */
export function usesCrlf(text: string): boolean {
  const crlf = countOccurrences(text, '\r\n')
  if (crlf === 0) return false
  return crlf >= countOccurrences(text, '\n') - crlf
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n')
}

/** Occurrences of `search`, counted up to `limit` (a count above it is reported as `limit`). */
function countOccurrences(text: string, search: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0
  for (
    let index = text.indexOf(search);
    index !== -1 && count < limit;
    index = text.indexOf(search, index + search.length)
  )
    count++
  return count
}

function replaceFirst(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search)
  return text.slice(0, index) + replacement + text.slice(index + search.length)
}

/** Refuse an edit whose result would take too long to build or be too large, before building it. */
function assertEditBounded(
  bodyLength: number,
  count: number,
  oldLength: number,
  newLength: number,
  request: EditRequest,
): void {
  if (count > MAX_EDIT_REPLACEMENTS) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.EDIT_TOO_LARGE,
      `old_string occurs ${timesText(count)} in ${request.label}; replace_all replaces at most ${MAX_EDIT_REPLACEMENTS} (use bash, e.g. sed, for a bulk rewrite)`,
    )
  }
  const length = bodyLength + count * (newLength - oldLength)
  if (request.maxLength !== undefined && length > request.maxLength) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.EDIT_TOO_LARGE,
      `the edit would make ${request.label} at least ${length} bytes, above ${request.maxLength} (maxEditBytes)`,
    )
  }
}

function timesText(count: number): string {
  return count > MAX_EDIT_REPLACEMENTS ? `more than ${MAX_EDIT_REPLACEMENTS} times` : `${count} times`
}
