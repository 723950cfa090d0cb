/**
 * A Thompson NFA over code points for the RE2 text `ecma-pattern-to-re2` writes, which is a small
 * regular grammar: `\x{H}` literals and plain word characters, classes of `\x{H}` items and
 * ranges (optionally negated), `(?:…)`, `|`, `*` `+` `?` `{n}` `{n,}` `{n,m}` (greediness is
 * irrelevant to a yes/no search), `^` and `$`. Anything else — `\b`, `\p{…}` — returns undefined
 * and the pattern runs in re2js instead. The NFA feeds the lazy DFA (lazy-dfa.ts).
 */

/** Inclusive code point ranges, sorted and disjoint. */
export type Ranges = readonly (readonly [number, number])[]

export type NfaState =
  | { readonly kind: 'char'; readonly ranges: Ranges; next: number }
  | { readonly kind: 'split'; next: number; alt: number }
  | { readonly kind: 'begin'; next: number }
  | { readonly kind: 'end'; next: number }
  | { readonly kind: 'match' }

export interface Nfa {
  readonly states: NfaState[]
  readonly start: number
}

/** More NFA states than this: leave the pattern to re2js (its own limits apply). */
const MAX_STATES = 10_000
const MAX_CODE_POINT = 0x10ffff

class Unsupported extends Error {}

/** A fragment: its entry state and the dangling exits to patch. */
interface Fragment {
  readonly start: number
  readonly exits: { readonly state: number; readonly field: 'next' | 'alt' }[]
}

function normalize(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [from, to] of ranges) {
    const last = out[out.length - 1]
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else out.push([from, to])
  }
  return out
}

function complement(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = []
  let next = 0
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1])
    next = to + 1
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT])
  return out
}

class Builder {
  readonly states: NfaState[] = []
  at = 0
  constructor(readonly text: string) {}

  add(state: NfaState): number {
    if (this.states.length >= MAX_STATES) throw new Unsupported()
    this.states.push(state)
    return this.states.length - 1
  }

  patch(fragment: Fragment, target: number): void {
    for (const { state, field } of fragment.exits)
      (this.states[state] as { next: number; alt: number })[field] = target
  }

  /** `\x{H}` at the cursor (after the backslash has been seen). */
  hexEscape(): number {
    if (this.text[this.at + 1] !== 'x' || this.text[this.at + 2] !== '{') throw new Unsupported()
    const end = this.text.indexOf('}', this.at)
    const code = Number.parseInt(this.text.slice(this.at + 3, end), 16)
    this.at = end + 1
    return code
  }

  classRanges(): [number, number][] {
    this.at++ // [
    const negated = this.text[this.at] === '^'
    if (negated) this.at++
    const ranges: [number, number][] = []
    while (this.text[this.at] !== ']') {
      const low = this.classMember()
      if (this.text[this.at] === '-' && this.text[this.at + 1] !== ']') {
        this.at++
        ranges.push([low, this.classMember()])
      } else ranges.push([low, low])
    }
    this.at++
    const sorted = normalize(ranges)
    return negated ? complement(sorted) : sorted
  }

  classMember(): number {
    if (this.text[this.at] === '\\') return this.hexEscape()
    const code = this.text.codePointAt(this.at)!
    this.at += code > 0xffff ? 2 : 1
    return code
  }

  alternation(): Fragment {
    let left = this.sequence()
    while (this.text[this.at] === '|') {
      this.at++
      const right = this.sequence()
      const split = this.add({ kind: 'split', next: left.start, alt: right.start })
      left = { start: split, exits: [...left.exits, ...right.exits] }
    }
    return left
  }

  sequence(): Fragment {
    let whole: Fragment | undefined
    while (this.at < this.text.length && this.text[this.at] !== '|' && this.text[this.at] !== ')') {
      const piece = this.quantified()
      if (whole === undefined) whole = piece
      else {
        this.patch(whole, piece.start)
        whole = { start: whole.start, exits: piece.exits }
      }
    }
    return whole ?? this.empty()
  }

  /** One atom with its quantifier, rebuilt from source for each copy `{n,m}` needs. */
  quantified(): Fragment {
    const atomStart = this.at
    let fragment = this.atom()
    const copy = (): Fragment => {
      const saved = this.at
      this.at = atomStart
      const again = this.atom()
      this.at = saved
      return again
    }
    const char = this.text[this.at]
    let min = 1
    let max = 1
    if (char === '*' || char === '+' || char === '?') {
      this.at++
      min = char === '+' ? 1 : 0
      max = char === '?' ? 1 : Number.POSITIVE_INFINITY
    } else if (char === '{') {
      const end = this.text.indexOf('}', this.at)
      const [low, high] = this.text.slice(this.at + 1, end).split(',')
      min = Number(low)
      max = high === undefined ? min : high === '' ? Number.POSITIVE_INFINITY : Number(high)
      this.at = end + 1
    } else return fragment
    if (this.text[this.at] === '?') this.at++ // lazy: same language
    // x{min,max} = x…x (min copies) then (x(x(…)?)?)? or x* when unbounded.
    const parts: Fragment[] = []
    for (let i = 0; i < min; i++) parts.push(i === 0 ? fragment : copy())
    if (max === Number.POSITIVE_INFINITY) {
      const loopBody = min === 0 ? fragment : copy()
      const split = this.add({ kind: 'split', next: loopBody.start, alt: -1 })
      this.patch(loopBody, split)
      parts.push({ start: split, exits: [{ state: split, field: 'alt' }] })
    } else {
      for (let i = min; i < max; i++) {
        const body = i === 0 ? fragment : copy()
        const split = this.add({ kind: 'split', next: body.start, alt: -1 })
        parts.push({ start: split, exits: [...body.exits, { state: split, field: 'alt' }] })
      }
    }
    if (parts.length === 0) return this.empty()
    fragment = parts[0]!
    for (const part of parts.slice(1)) {
      this.patch(fragment, part.start)
      fragment = { start: fragment.start, exits: part.exits }
    }
    return fragment
  }

  /** A fragment matching the empty string: a split whose two exits go the same way. */
  empty(): Fragment {
    const state = this.add({ kind: 'split', next: -1, alt: -1 })
    return {
      start: state,
      exits: [
        { state, field: 'next' },
        { state, field: 'alt' },
      ],
    }
  }

  atom(): Fragment {
    const char = this.text[this.at]!
    let state: number
    if (char === '(') {
      if (!this.text.startsWith('(?:', this.at)) throw new Unsupported()
      this.at += 3
      const inner = this.alternation()
      this.at++ // )
      return inner
    }
    if (char === '[') state = this.add({ kind: 'char', ranges: this.classRanges(), next: -1 })
    else if (char === '^') {
      this.at++
      state = this.add({ kind: 'begin', next: -1 })
    } else if (char === '$') {
      this.at++
      state = this.add({ kind: 'end', next: -1 })
    } else if (char === '\\') {
      const code = this.hexEscape()
      state = this.add({ kind: 'char', ranges: [[code, code]], next: -1 })
    } else if (/[0-9A-Za-z_]/.test(char)) {
      this.at++
      const code = char.charCodeAt(0)
      state = this.add({ kind: 'char', ranges: [[code, code]], next: -1 })
    } else throw new Unsupported()
    return { start: state, exits: [{ state, field: 'next' }] }
  }
}

/** The NFA of translated RE2 text, or undefined when it uses what this builder leaves to re2js. */
export function buildNfa(re2: string): Nfa | undefined {
  const builder = new Builder(re2)
  try {
    const fragment = builder.alternation()
    if (builder.at !== re2.length) return undefined
    const match = builder.add({ kind: 'match' })
    builder.patch(fragment, match)
    return { states: builder.states, start: fragment.start }
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
}
