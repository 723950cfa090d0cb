import { readUnicodeProperty } from './unicode-properties'

/**
 * Rewrites an ECMAScript `u`-flag pattern (JSON Schema's regex dialect) into RE2 syntax with the
 * same meaning for a yes/no search, so it can run in a linear-time engine. The source must
 * already compile as `new RegExp(source, 'u')`: the `u` grammar is strict, so every construct is
 * known here. Every literal is written as `\x{…}`, every class escape as explicit ranges (`\s`
 * is ECMAScript's whitespace set, `.` excludes the four line terminators), and groups lose their
 * captures (a search needs none). What only a backtracking engine can run — backreferences and
 * lookaround — and what has no RE2 equivalent is refused: {@link PatternRefusal}.
 */
export class PatternRefusal extends Error {}

type Range = readonly [number, number]

const MAX_CODE_POINT = 0x10ffff
const DIGIT: Range[] = [[0x30, 0x39]]
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]
/** ECMAScript WhiteSpace and LineTerminator (what `\s` matches). */
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]
const LINE_TERMINATORS = '\\x{A}\\x{D}\\x{2028}\\x{2029}'
const CONTROL: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b }

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = []
  let next = 0
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1])
    next = to + 1
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT])
  return out
}

const hex = (code: number): string => `\\x{${code.toString(16).toUpperCase()}}`
const classText = (ranges: readonly Range[]): string =>
  ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('')

/** A parsed class escape: explicit ranges, or an RE2 property item (`\p{Lu}`). */
type ClassPart = { readonly ranges: readonly Range[] } | { readonly item: string }

class Reader {
  at = 0
  constructor(readonly source: string) {}

  peek(offset = 0): string | undefined {
    return this.source[this.at + offset]
  }

  /** The code point at the cursor, consumed. */
  codePoint(): number {
    const code = this.source.codePointAt(this.at)!
    this.at += code > 0xffff ? 2 : 1
    return code
  }

  /** Consumes `count` hex digits (or a `{…}` code point) after `\x` / `\u`. */
  hexDigits(count: number): number {
    const text = this.source.slice(this.at, this.at + count)
    this.at += count
    return Number.parseInt(text, 16)
  }

  /** `\u` escape body (cursor after `u`): `{…}`, `XXXX`, or a surrogate pair of two escapes. */
  unicodeEscape(): number {
    if (this.peek() === '{') {
      const end = this.source.indexOf('}', this.at)
      const code = Number.parseInt(this.source.slice(this.at + 1, end), 16)
      this.at = end + 1
      return code
    }
    const high = this.hexDigits(4)
    if (high >= 0xd800 && high <= 0xdbff && this.source.startsWith('\\u', this.at)) {
      const low = Number.parseInt(this.source.slice(this.at + 2, this.at + 6), 16)
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.at += 6
        return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
      }
    }
    return high
  }

  /**
   * The escape after a `\` (cursor after it): a single code point, or a class part.
   * `inClass` reads `\b` as backspace and `\-` as `-`.
   */
  escape(inClass: boolean): number | ClassPart {
    const char = this.source[this.at++]!
    switch (char) {
      case 'd':
        return { ranges: DIGIT }
      case 'D':
        return { ranges: complement(DIGIT) }
      case 'w':
        return { ranges: WORD }
      case 'W':
        return { ranges: complement(WORD) }
      case 's':
        return { ranges: SPACE }
      case 'S':
        return { ranges: complement(SPACE) }
      case 'p':
      case 'P':
        return this.property(char === 'P')
      case 'c':
        return this.source.charCodeAt(this.at++) % 32
      case 'x':
        return this.hexDigits(2)
      case 'u':
        return this.unicodeEscape()
      case '0':
        return 0
      case 'k':
        throw new PatternRefusal('backreferences (\\k<name>) need a backtracking engine')
      case 'b':
        if (inClass) return 0x08
        break
      case '-':
        return 0x2d
    }
    if (CONTROL[char] !== undefined) return CONTROL[char]
    if (char >= '1' && char <= '9')
      throw new PatternRefusal(`backreferences (\\${char}) need a backtracking engine`)
    // The remaining `u`-flag escapes are identity escapes of syntax characters and `/`.
    return char.codePointAt(0)!
  }

  property(negated: boolean): ClassPart {
    const end = this.source.indexOf('}', this.at)
    const name = this.source.slice(this.at + 1, end)
    this.at = end + 1
    const reading = readUnicodeProperty(name)
    if (reading === undefined)
      throw new PatternRefusal(`the Unicode property \\p{${name}} is not supported by the linear-time engine`)
    if ('name' in reading) return { item: `\\${negated ? 'P' : 'p'}{${reading.name}}` }
    return { ranges: negated ? complement(reading.ranges) : reading.ranges }
  }
}

function partText(part: ClassPart): string {
  return 'ranges' in part ? classText(part.ranges) : part.item
}

/** A class of `body` outside brackets; RE2 has no empty class, so nothing is spelled out. */
function classOf(body: string): string {
  return body === '' ? '[^\\x{0}-\\x{10FFFF}]' : `[${body}]`
}

/** `[...]` (cursor after `[`) as an RE2 class. */
function characterClass(reader: Reader): string {
  let negated = false
  if (reader.peek() === '^') {
    negated = true
    reader.at++
  }
  let body = ''
  const member = (): number | ClassPart => {
    if (reader.peek() === '\\') {
      reader.at++
      return reader.escape(true)
    }
    return reader.codePoint()
  }
  while (reader.peek() !== ']') {
    const low = member()
    // `a-z` is a range unless `-` ends the class; `u`-flag ranges have single-character ends.
    if (typeof low === 'number' && reader.peek() === '-' && reader.peek(1) !== ']') {
      reader.at++
      const high = member() as number
      body += `${hex(low)}-${hex(high)}`
    } else {
      const text = typeof low === 'number' ? hex(low) : partText(low)
      body += text
    }
  }
  reader.at++
  // RE2 has no empty class: `[]` matches nothing, `[^]` matches anything.
  if (body === '') return negated ? '[\\x{0}-\\x{10FFFF}]' : '[^\\x{0}-\\x{10FFFF}]'
  return `[${negated ? '^' : ''}${body}]`
}

const PLAIN = /[0-9A-Za-z_]/

/** The RE2 text for an ECMAScript `u`-flag pattern, or throws {@link PatternRefusal}. */
export function ecmaPatternToRe2(source: string): string {
  const reader = new Reader(source)
  let out = ''
  while (reader.at < source.length) {
    const char = reader.peek()!
    switch (char) {
      case '\\': {
        reader.at++
        const escaped = reader.peek()
        if (escaped === 'b' || escaped === 'B') {
          // ASCII word boundaries in both engines (no `i` flag here).
          out += `\\${escaped}`
          reader.at++
          break
        }
        const part = reader.escape(false)
        out += typeof part === 'number' ? hex(part) : classOf(partText(part))
        break
      }
      case '[':
        reader.at++
        out += characterClass(reader)
        break
      case '(':
        out += group(reader)
        break
      case '.':
        reader.at++
        out += `[^${LINE_TERMINATORS}]`
        break
      case '^':
      case '$':
      case '|':
      case ')':
      case '*':
      case '+':
      case '?':
        reader.at++
        out += char
        break
      case '{': {
        // Always a quantifier under the `u` flag.
        const end = source.indexOf('}', reader.at)
        out += source.slice(reader.at, end + 1)
        reader.at = end + 1
        break
      }
      default: {
        const code = reader.codePoint()
        out += PLAIN.test(char) ? char : hex(code)
      }
    }
  }
  return out
}

/** A group opener (cursor at `(`) as a non-capturing RE2 group, or a refusal. */
function group(reader: Reader): string {
  reader.at++
  if (reader.peek() !== '?') return '(?:'
  const next = reader.peek(1)
  if (next === ':') {
    reader.at += 2
    return '(?:'
  }
  if (next === '=' || next === '!')
    throw new PatternRefusal('lookahead assertions need a backtracking engine')
  if (next === '<' && (reader.peek(2) === '=' || reader.peek(2) === '!'))
    throw new PatternRefusal('lookbehind assertions need a backtracking engine')
  if (next === '<') {
    reader.at = reader.source.indexOf('>', reader.at) + 1
    return '(?:'
  }
  throw new PatternRefusal('pattern modifiers ((?i:…)) are not supported by the linear-time engine')
}
