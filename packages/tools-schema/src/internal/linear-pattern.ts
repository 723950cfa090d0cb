import { RE2JS } from 're2js'
import { ecmaPatternToRe2, PatternRefusal } from './ecma-pattern-to-re2'
import { LazyDfa } from './lazy-dfa'
import { splitLeadingLookaheads } from './leading-lookaheads'
import { buildNfa } from './pattern-nfa'
import { readSimplePattern, type SimplePattern } from './simple-pattern'

/**
 * A compiled `pattern` / `patternProperties` regex that runs in time linear in the string it
 * tests, whatever the schema's author wrote: `^(a+)+$` costs one pass, not 2^n backtracking
 * steps. The commonest shape (`^[class]quantifier$`) is a char-code loop; everything else is
 * rewritten to RE2 syntax (ecma-pattern-to-re2) and run by `re2js` (a lazy DFA with a Pike-VM
 * fallback, both linear). Lookaheads right after a leading `^` become separate anchored tests
 * (leading-lookaheads). Other patterns only a backtracking engine can run are refused.
 */
export interface LinearPattern {
  /** The pattern as the schema wrote it (ECMAScript, `u` flag). */
  readonly source: string
  /** Whether `text` contains a match (JSON Schema patterns are not anchored). */
  test(text: string): boolean
  /** The char-code ranges when the pattern is a simple class loop (the generated check inlines it). */
  readonly simple: SimplePattern | undefined
}

function simpleTest(pattern: SimplePattern): (text: string) => boolean {
  const { ranges, min, max } = pattern
  return (text) => {
    const n = text.length
    if (n < min || n > max) return false
    outer: for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      for (const [from, to] of ranges) if (c >= from && c <= to) continue outer
      return false
    }
    return true
  }
}

/** The RE2 engine's search for an ECMAScript pattern, or a refusal. */
function engineTest(source: string): (text: string) => boolean {
  const translated = ecmaPatternToRe2(source)
  let engine: RE2JS
  try {
    engine = RE2JS.compile(translated)
  } catch (error) {
    // e.g. a repetition count over RE2's 1000, or a script name RE2 does not know.
    throw new PatternRefusal(`the linear-time engine cannot run it (${(error as Error).message})`)
  }
  const nfa = buildNfa(translated)
  if (nfa === undefined) return (text) => engine.test(text)
  // Our lazy DFA when the translated pattern is in its grammar (no \b, no \p{…}): same answers
  // as re2js (which compiled it just above, so RE2's size limits already apply), fewer steps.
  const dfa = new LazyDfa(nfa)
  return (text) => dfa.test(text)
}

// Schemas are compiled at the gate and again for validators: share the compiled engine.
const cache = new Map<string, LinearPattern>()
const MAX_CACHED = 512

/**
 * Compiles `source` (already known to compile as `new RegExp(source, 'u')`), or throws
 * {@link PatternRefusal} saying why it cannot run in linear time.
 */
export function compileLinearPattern(source: string): LinearPattern {
  const known = cache.get(source)
  if (known !== undefined) return known
  const simple = readSimplePattern(source)
  let test: (text: string) => boolean
  if (simple !== undefined) test = simpleTest(simple)
  else {
    const split = splitLeadingLookaheads(source)
    if (split === undefined) test = engineTest(source)
    else {
      const rest = engineTest(split.rest)
      const checks = split.checks.map(({ negated, body }) => ({ negated, test: engineTest(`^(?:${body})`) }))
      test = (text) => {
        for (const check of checks) if (check.test(text) === check.negated) return false
        return rest(text)
      }
    }
  }
  const pattern: LinearPattern = Object.freeze({ source, test, simple })
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(source, pattern)
  return pattern
}

export { PatternRefusal }
