import { RE2JS } from 're2js'
import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'

/**
 * Bounds on a model-chosen glob. The compiled matcher is an RE2 program, so matching is linear
 * in the path length whatever the pattern; these caps keep the program itself small.
 */
export const GLOB_LIMITS = {
  /** Characters in the pattern. */
  maxLength: 1024,
  /** `*`, `**`, `?` and `[…]` classes together. */
  maxWildcards: 64,
  /** Alternatives over all `{a,b,…}` groups. */
  maxBraceAlternatives: 256,
  /** Nesting of `{…}` groups. */
  maxBraceDepth: 8,
} as const

/** Options of {@link compileGlob}. */
export interface CompileGlobOptions {
  /** Match only the last path segment (the file name), like `rg --glob` without a `/`. */
  readonly basename?: boolean
}

const REGEX_META = new Set('\\.+*?()|[]{}^$')
const EXTGLOB_OPENERS = new Set(['@', '!', '+', '*', '?'])

/**
 * Compile a glob to a linear-time matcher over `/`-separated relative paths. Syntax: `*` (any
 * run within a segment), `?` (one character but `/`), `**` as a whole segment (any number of
 * segments), `[abc]`/`[a-z]`/`[!x]`/`[^x]` classes, `{a,b}` alternatives (nestable) and `\`
 * escapes. Dotfiles match like other names. Extglobs and leading-`!` negation are refused.
 * @throws {FsToolError} `INVALID_PATTERN` for unsupported syntax or a pattern past {@link GLOB_LIMITS}.
 */
export function compileGlob(
  pattern: string,
  options: CompileGlobOptions = {},
): (relative: string) => boolean {
  const fail = (why: string): never => {
    throw new FsToolError(FS_TOOL_ERROR_CODES.INVALID_PATTERN, `invalid glob "${clip(pattern)}": ${why}`)
  }
  if (pattern.length > GLOB_LIMITS.maxLength)
    fail(`longer than ${GLOB_LIMITS.maxLength} characters (${pattern.length})`)
  if (pattern.startsWith('!')) fail('negated globs ("!…") are not supported')
  const braces = matchBraces(pattern)
  let source = ''
  let wildcards = 0
  let alternatives = 0
  let depth = 0
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!
    const next = pattern[index + 1]
    if (char === '\\' && next !== undefined) {
      source += quote(next)
      index++
    } else if (next === '(' && EXTGLOB_OPENERS.has(char)) {
      fail(`extglob "${char}(…)" is not supported`)
    } else if (char === '*') {
      wildcards++
      let end = index
      while (pattern[end + 1] === '*') end++
      const segmentStart = index === 0 || pattern[index - 1] === '/'
      const segmentEnd = end + 1 === pattern.length || pattern[end + 1] === '/'
      if (end > index && segmentStart && segmentEnd) {
        // `**/` is zero or more whole directories; a final `**` is anything below.
        if (pattern[end + 1] === '/') {
          source += '(?:.*/)?'
          end++
        } else source += '.*'
      } else source += '[^/]*'
      index = end
    } else if (char === '?') {
      wildcards++
      source += '[^/]'
    } else if (char === '[') {
      const close = classEnd(pattern, index)
      if (close === -1) source += '\\['
      else {
        wildcards++
        source += translateClass(pattern.slice(index + 1, close))
        index = close
      }
    } else if (char === '{' && braces.has(index)) {
      depth++
      alternatives++
      if (depth > GLOB_LIMITS.maxBraceDepth) fail(`braces nested deeper than ${GLOB_LIMITS.maxBraceDepth}`)
      source += '(?:'
    } else if (char === ',' && depth > 0) {
      alternatives++
      source += '|'
    } else if (char === '}' && depth > 0 && braces.has(index)) {
      depth--
      source += ')'
    } else source += quote(char)
    if (wildcards > GLOB_LIMITS.maxWildcards) fail(`more than ${GLOB_LIMITS.maxWildcards} wildcards`)
    if (alternatives > GLOB_LIMITS.maxBraceAlternatives)
      fail(`more than ${GLOB_LIMITS.maxBraceAlternatives} brace alternatives`)
  }
  let regex: RE2JS
  try {
    regex = RE2JS.compile(`^(?:${source})$`, RE2JS.DOTALL)
  } catch (error) {
    return fail(String((error as Error).message))
  }
  if (options.basename === true)
    return (relative) => regex.test(relative.slice(relative.lastIndexOf('/') + 1))
  return (relative) => regex.test(relative)
}

/** Positions of `{` and `}` that pair up (escapes and classes skipped); unpaired braces are literal. */
function matchBraces(pattern: string): Set<number> {
  const paired = new Set<number>()
  const open: number[] = []
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]
    if (char === '\\') index++
    else if (char === '[') {
      const close = classEnd(pattern, index)
      if (close !== -1) index = close
    } else if (char === '{') open.push(index)
    else if (char === '}' && open.length > 0) {
      paired.add(open.pop()!)
      paired.add(index)
    }
  }
  return paired
}

/** Index of the `]` closing the class opened at `start`, or -1 (a `]` right after `[`/`[!` is literal). */
function classEnd(pattern: string, start: number): number {
  let index = start + 1
  if (pattern[index] === '!' || pattern[index] === '^') index++
  if (pattern[index] === ']') index++
  for (; index < pattern.length; index++) {
    const char = pattern[index]
    if (char === '\\') index++
    else if (char === '[' && pattern[index + 1] === ':') {
      const end = pattern.indexOf(':]', index + 2)
      if (end !== -1) index = end + 1
    } else if (char === ']') return index
  }
  return -1
}

/** A glob class body as an RE2 class that never matches `/`. */
function translateClass(body: string): string {
  let negated = false
  let index = 0
  if (body[0] === '!' || body[0] === '^') {
    negated = true
    index = 1
  }
  let out = ''
  for (; index < body.length; index++) {
    const char = body[index]!
    if (char === '\\' && index + 1 < body.length) {
      out += `\\${body[++index]}`
    } else if (char === '[' && body[index + 1] === ':') {
      const end = body.indexOf(':]', index + 2)
      out += body.slice(index, end + 2)
      index = end + 1
    } else if (char === '[' || char === ']' || char === '^') out += `\\${char}`
    else out += char
  }
  // A literal `/` never matches inside a segment; a range spanning `/` is the caller's choice.
  return negated ? `[^/${out}]` : `[${out.replaceAll('/', '') || '^\\s\\S'}]`
}

function quote(char: string): string {
  return REGEX_META.has(char) ? `\\${char}` : char
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}
