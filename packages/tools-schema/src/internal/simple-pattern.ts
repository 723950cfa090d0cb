/**
 * The commonest `pattern` shape in tool schemas, `^[class]quantifier$` over an ASCII character
 * class (`^[a-z0-9_-]+$`, `^\d{4}$`), read into ranges so the generated check can test it with a
 * loop over char codes. Calling into the regular-expression engine costs far more than the
 * match itself for short values. Exact under the `u` flag: a class of ASCII characters rejects
 * every other code unit, so counting code units or code points gives the same answer.
 */
export interface SimplePattern {
  /** Inclusive char-code ranges of the class. */
  readonly ranges: readonly (readonly [number, number])[]
  readonly min: number
  /** Infinity when unbounded. */
  readonly max: number
}

const DIGITS: [number, number] = [48, 57]
const WORD: [number, number][] = [DIGITS, [65, 90], [95, 95], [97, 122]]
// Identity escapes the `u` flag allows: syntax characters, `/` and (inside a class) `-`.
const IDENTITY = new Set('^$\\.*+?()[]{}|/-')
// Largest repetition count read from `{n,m}`: beyond it, leave the pattern to the regex engine.
const MAX_COUNT = 100_000

interface Atom {
  readonly ranges: readonly (readonly [number, number])[]
  /** True for one character (may end a range); false for `\d` / `\w`. */
  readonly single: boolean
  readonly next: number
}

/** One class member at `i`, or undefined if unsupported. */
function readAtom(text: string, i: number): Atom | undefined {
  const char = text[i]
  if (char === undefined) return undefined
  if (char === '\\') {
    const escaped = text[i + 1]
    if (escaped === 'd') return { ranges: [DIGITS], single: false, next: i + 2 }
    if (escaped === 'w') return { ranges: WORD, single: false, next: i + 2 }
    if (escaped === undefined || !IDENTITY.has(escaped)) return undefined
    const code = escaped.charCodeAt(0)
    return { ranges: [[code, code]], single: true, next: i + 2 }
  }
  const code = char.charCodeAt(0)
  if (code < 0x20 || code > 0x7e || char === '[' || char === ']') return undefined
  return { ranges: [[code, code]], single: true, next: i + 1 }
}

/** `[...]` at `i` (no negation) or a lone `\d` / `\w`, or undefined if unsupported. */
function readClass(text: string, i: number): Atom | undefined {
  if (text[i] === '\\') {
    const atom = readAtom(text, i)
    return atom?.single === false ? atom : undefined
  }
  if (text[i] !== '[' || text[i + 1] === '^') return undefined
  const ranges: (readonly [number, number])[] = []
  let at = i + 1
  while (text[at] !== ']') {
    const low = readAtom(text, at)
    if (low === undefined) return undefined
    at = low.next
    // `a-z` is a range unless `-` ends the class.
    if (text[at] === '-' && text[at + 1] !== ']') {
      const high = readAtom(text, at + 1)
      if (high === undefined || !low.single || !high.single) return undefined
      const from = low.ranges[0]![0]
      const to = high.ranges[0]![0]
      if (from > to) return undefined
      ranges.push([from, to])
      at = high.next
    } else ranges.push(...low.ranges)
  }
  return ranges.length === 0 ? undefined : { ranges, single: false, next: at + 1 }
}

const COUNT = /^\{(\d+)(,(\d*))?\}\$$/

/** The pattern as ranges and counts, or undefined when it has any other shape. */
export function readSimplePattern(source: string): SimplePattern | undefined {
  if (!source.startsWith('^')) return undefined
  const cls = readClass(source, 1)
  if (cls === undefined) return undefined
  const rest = source.slice(cls.next)
  if (rest === '+$') return { ranges: cls.ranges, min: 1, max: Number.POSITIVE_INFINITY }
  if (rest === '*$') return { ranges: cls.ranges, min: 0, max: Number.POSITIVE_INFINITY }
  if (rest === '$') return { ranges: cls.ranges, min: 1, max: 1 }
  const count = COUNT.exec(rest)
  if (count === null) return undefined
  const min = Number(count[1])
  const max = count[2] === undefined ? min : count[3] === '' ? Number.POSITIVE_INFINITY : Number(count[3])
  if (min > MAX_COUNT || (max !== Number.POSITIVE_INFINITY && max > MAX_COUNT) || min > max) return undefined
  return { ranges: cls.ranges, min, max }
}

/** A JavaScript function declaration `name(s)` testing a string against `pattern`. */
export function simplePatternFunction(name: string, pattern: SimplePattern): string {
  const member = pattern.ranges
    .map(([from, to]) => (from === to ? `c === ${from}` : `(c >= ${from} && c <= ${to})`))
    .join(' || ')
  const length =
    pattern.max === Number.POSITIVE_INFINITY
      ? `n < ${pattern.min}`
      : `n < ${pattern.min} || n > ${pattern.max}`
  return `function ${name}(s) { const n = s.length; if (${length}) return false;
for (let i = 0; i < n; i++) { const c = s.charCodeAt(i); if (!(${member})) return false; }
return true; }`
}
