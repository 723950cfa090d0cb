// Simple `^[class]quantifier$` patterns are tested by a generated char-code loop instead of the
// regex engine. For generated patterns built from the pieces the reader knows (and pieces it
// must refuse) and strings over ASCII, non-ASCII and astral characters, the loop must answer
// exactly as the `u`-flag RegExp does.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { readSimplePattern, simplePatternFunction } from '../src/internal/simple-pattern'

const RUNS = Number(process.env.DSH_DIFF_RUNS ?? 400)

const member = fc.constantFrom(
  'a',
  'z',
  'A',
  '0',
  '9',
  '_',
  '-',
  '.',
  '/',
  ' ',
  '$',
  '(',
  ')',
  '*',
  '+',
  '?',
  '{',
  '}',
  '|',
  '!',
  '~',
  '\\d',
  '\\w',
  '\\-',
  '\\.',
  '\\/',
  '\\\\',
  '\\]',
  '\\[',
  '\\^',
  '\\$',
  'a-z',
  '0-9',
  'A-F',
  '!-/',
  'b-a',
  '\\d-z',
  'a-\\d',
  // Pieces the reader must refuse (negation, other escapes, non-ASCII, nested classes).
  '\\s',
  '\\n',
  'é',
  '😀',
  '[',
  '\\u0041',
  '\\p{L}',
)
const quantifier = fc.constantFrom('+', '*', '', '{2}', '{1,3}', '{0,}', '{0}', '{3,1}', '+?', '{2,}?')
const pattern = fc
  .tuple(fc.boolean(), fc.array(member, { minLength: 1, maxLength: 4 }), quantifier, fc.boolean())
  .map(([negated, members, q, bare]) =>
    bare && members[0]!.startsWith('\\')
      ? `^${members[0]}${q}$`
      : `^[${negated ? '^' : ''}${members.join('')}]${q}$`,
  )
const text = fc.string({
  unit: fc.constantFrom(
    'a',
    'b',
    'z',
    'A',
    'Q',
    '0',
    '5',
    '_',
    '-',
    '.',
    '/',
    ' ',
    '$',
    '\\',
    ']',
    '^',
    'é',
    '😀',
    '\n',
    '\u0000',
  ),
  maxLength: 5,
})

function regexFor(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u')
  } catch {
    return undefined
  }
}

describe('simple patterns', () => {
  it('answer exactly as the u-flag RegExp on every string', () => {
    let read = 0
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 30, maxLength: 30 }), (source, strings) => {
        const regex = regexFor(source)
        const simple = readSimplePattern(source)
        if (regex === undefined) return
        if (simple === undefined) return
        read++
        const test = new Function(`${simplePatternFunction('f', simple)}\nreturn f`)() as (
          s: string,
        ) => boolean
        for (const s of strings) expect([source, s, test(s)]).toEqual([source, s, regex.test(s)])
      }),
      { seed: 20261201, numRuns: RUNS },
    )
    expect(read).toBeGreaterThan(RUNS / 8)
  })

  it.each([
    ['^[a-z]+$', 'abc', 'aBc'],
    ['^[a-zA-Z0-9_-]{1,64}$', 'tool_name-1', 'tool name'],
    ['^\\d{4}$', '2026', '20a6'],
    ['^[A-Z]{2}$', 'DE', 'D😀'],
  ])('%s through the validator, on both paths', (source, ok, bad) => {
    expect(readSimplePattern(source)).toBeDefined()
    for (const fast of [true, false]) {
      setFastChecksEnabled(fast)
      const check = compileJsonSchemaValidator({ type: 'string', pattern: source })
      expect(check(ok)).toEqual([])
      expect(check(bad)).toHaveLength(1)
    }
    setFastChecksEnabled(true)
  })

  it('leaves every other shape to the regex engine', () => {
    for (const source of [
      '[a-z]+',
      '^[a-z]+',
      '^[^a]+$',
      '^a+$',
      '^[a-z]+?$',
      '^\\s+$',
      '^[é]+$',
      '^(ab)+$',
      '^[a-z]{1000000}$',
    ])
      expect(readSimplePattern(source)).toBeUndefined()
  })
})
