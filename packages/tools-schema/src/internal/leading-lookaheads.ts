/**
 * The one lookaround shape real schemas use (zod's email pattern, "must contain a digit"
 * password rules): lookaheads right after a leading `^`, `^(?!\.)(?=.*\d)rest`. Since `^` only
 * matches at the start, each lookahead is a separate anchored test of the whole string, and the
 * pattern is their conjunction with `^rest` — each part runs in the linear-time engine.
 */
export interface LeadingLookaheads {
  /** `(?=body)` (negated false) or `(?!body)` (negated true), each tested as `^(?:body)`. */
  readonly checks: readonly { readonly negated: boolean; readonly body: string }[]
  /** The pattern after the lookaheads, with its `^`. */
  readonly rest: string
}

/** The index after the `)` closing the group opened at `open`, skipping escapes and classes. */
function groupEnd(source: string, open: number): number {
  let depth = 0
  let inClass = false
  for (let i = open; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')' && --depth === 0) return i + 1
  }
  return source.length
}

/** Whether `source` has a `|` outside every group and class (the lookaheads would not cover it). */
function hasTopLevelAlternative(source: string): boolean {
  let depth = 0
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === '|' && depth === 0) return true
  }
  return false
}

/** Splits `^(?=a)(?!b)rest`, or undefined when the pattern does not start that way. */
export function splitLeadingLookaheads(source: string): LeadingLookaheads | undefined {
  if (!source.startsWith('^(?=') && !source.startsWith('^(?!')) return undefined
  if (hasTopLevelAlternative(source)) return undefined
  const checks: { negated: boolean; body: string }[] = []
  let at = 1
  while (source.startsWith('(?=', at) || source.startsWith('(?!', at)) {
    const end = groupEnd(source, at)
    checks.push({ negated: source[at + 2] === '!', body: source.slice(at + 3, end - 1) })
    at = end
  }
  return { checks, rest: `^${source.slice(at)}` }
}
