import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'

/** Longest `grep` pattern accepted, in characters: keeps the compiled RE2 program small. */
export const MAX_GREP_PATTERN_LENGTH = 4096

const GROUP_CONSTRUCTS: readonly (readonly [prefix: string, name: string])[] = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'negative lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'negative lookahead'],
  ['(?>', 'atomic group'],
]

/**
 * Refuse, by name, the JavaScript regex constructs RE2 cannot match in linear time
 * (lookaround, backreferences, atomic groups), so the model learns what to rewrite instead of
 * reading RE2's generic parse error. Escapes and character classes are skipped while scanning.
 * @throws {FsToolError} `INVALID_PATTERN`.
 */
export function assertLinearTimeRegex(pattern: string): void {
  const fail = (what: string, at: string): never => {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATTERN,
      `unsupported regular expression syntax: ${what} "${at}" (grep uses RE2 syntax, which matches in linear time and has no lookaround or backreferences)`,
    )
  }
  if (pattern.length > MAX_GREP_PATTERN_LENGTH)
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATTERN,
      `regular expression longer than ${MAX_GREP_PATTERN_LENGTH} characters (${pattern.length})`,
    )
  let inClass = false
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]
    if (char === '\\') {
      const next = pattern[index + 1] ?? ''
      if (!inClass && next >= '1' && next <= '9') fail('backreference', `\\${next}`)
      if (!inClass && next === 'k' && pattern[index + 2] === '<') fail('named backreference', '\\k<')
      index++
    } else if (inClass) {
      if (char === ']') inClass = false
    } else if (char === '[') {
      inClass = true
      // A `]` first in the class (after an optional `^`) is a literal in RE2.
      if (pattern[index + 1] === '^') index++
      if (pattern[index + 1] === ']') index++
    } else if (char === '(') {
      for (const [prefix, name] of GROUP_CONSTRUCTS) {
        if (pattern.startsWith(prefix, index)) fail(name, prefix)
      }
    }
  }
}
