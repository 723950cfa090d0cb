/**
 * A cheap, linear pre-check of a program's shape before any parser sees it. The type stripper
 * (SWC compiled to WebAssembly) and acorn are recursive-descent parsers: a program nested a few
 * thousand levels deep overflows their stack, and a stack overflow unwinding through the
 * WebAssembly stripper can leave its memory corrupt. Bracket nesting is the common way to nest
 * that deep, so it is bounded here; every other deep construct is caught by the stripper's
 * isolation (see `type-stripper.ts`).
 */

/** Largest program accepted, in UTF-16 code units (256 Ki): parsing stays a few milliseconds. */
export const MAX_PROGRAM_CHARS = 262_144

/** Deepest bracket nesting accepted; hand-written programs stay far below it. */
export const MAX_BRACKET_DEPTH = 256

/**
 * `undefined` when the program may be parsed, otherwise why it is refused. Brackets are counted
 * without regard to strings or comments (a lexer here would be a parser to protect), so a
 * string holding hundreds of unbalanced opening brackets is refused too.
 */
export function checkProgramShape(code: string): string | undefined {
  if (code.length > MAX_PROGRAM_CHARS) {
    return `the program is too large (${code.length} characters; at most ${MAX_PROGRAM_CHARS})`
  }
  let depth = 0
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i)
    // ( [ {  and  ) ] }
    if (c === 40 || c === 91 || c === 123) {
      depth += 1
      if (depth > MAX_BRACKET_DEPTH) {
        return `the program nests brackets more than ${MAX_BRACKET_DEPTH} levels deep`
      }
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      depth -= 1
    }
  }
  return undefined
}
