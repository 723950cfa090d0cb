// Patterns from schemas run in a linear-time engine (RE2 via re2js) after a rewrite from
// ECMAScript `u`-flag syntax. For generated patterns over the whole `u` grammar the rewrite
// accepts (escapes, classes, properties, groups, quantifiers, anchors, boundaries) and strings
// over ASCII, line terminators, Unicode whitespace, astral characters and lone surrogates, the
// linear engine must answer exactly as `new RegExp(source, 'u').test` does.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, UnsupportedJsonSchemaError } from '../src/index'
import { ecmaPatternToRe2, PatternRefusal } from '../src/internal/ecma-pattern-to-re2'
import { LazyDfa } from '../src/internal/lazy-dfa'
import { compileLinearPattern } from '../src/internal/linear-pattern'
import { buildNfa } from '../src/internal/pattern-nfa'

// `DSH_LONG=1` (or DSH_DIFF_RUNS) runs the longer sample.
const RUNS = Number(process.env.DSH_DIFF_RUNS ?? (process.env.DSH_LONG === '1' ? 300 : 100))

const atom = fc.constantFrom(
  'a',
  'b',
  'A',
  '0',
  '_',
  '-',
  ' ',
  'é',
  '😀',
  'α',
  '.',
  '\\.',
  '\\\\',
  '\\/',
  '\\-',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\n',
  '\\t',
  '\\r',
  '\\v',
  '\\f',
  '\\0',
  '\\cJ',
  '\\x41',
  '\\u00e9',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '\\uD800',
  '\\u2028',
  '\\p{L}',
  '\\p{Lu}',
  '\\P{Letter}',
  '\\p{Nd}',
  '\\p{Script=Greek}',
  '\\p{ASCII}',
  '\\P{Any}',
  '\\p{ASCII_Hex_Digit}',
  '[ab]',
  '[^a-c]',
  '[\\s\\d]',
  '[\\S]',
  '[^\\S\\n]',
  '[\\b]',
  '[]',
  '[^]',
  '[a-zé-ü]',
  '[\\p{Lu}\\d-]',
  '[^\\P{L}]',
  '[\\u{1F600}-\\u{1F64F}]',
  '[\\uD800-\\uDFFF]',
  '[\\w.-]',
  '[\\]\\[]',
  '[\\P{ASCII}]',
)

const quantifier = fc.constantFrom(
  '',
  '',
  '',
  '*',
  '+',
  '?',
  '{2}',
  '{0,3}',
  '{1,}',
  '*?',
  '+?',
  '??',
  '{1,2}?',
)

const pattern: fc.Arbitrary<string> = fc.letrec<{ alt: string; seq: string; term: string }>((tie) => ({
  alt: fc.oneof(
    { weight: 3, arbitrary: tie('seq') },
    fc.tuple(tie('seq'), tie('seq')).map(([a, b]) => `${a}|${b}`),
  ),
  seq: fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((terms) => terms.join('')),
  term: fc.oneof(
    { weight: 6, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
    { weight: 1, arbitrary: fc.constantFrom('^', '$', '\\b', '\\B') },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('alt'), quantifier)
        .map(([open, body, q]) => `${open}${body})${q}`),
    },
  ),
})).alt

const character = fc.constantFrom(
  'a',
  'b',
  'A',
  '0',
  '9',
  '_',
  '-',
  '.',
  ' ',
  '\n',
  '\r',
  '\t',
  '\u2028',
  '\u00a0',
  '\ufeff',
  '\u3000',
  'é',
  'ü',
  'α',
  'Ω',
  '😀',
  '\ud800',
  '\udc00',
  '\x08',
  '\0',
  '\\',
  '/',
  ']',
)
const text = fc.array(character, { maxLength: 8 }).map((chars) => chars.join(''))

function nativeOrUndefined(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u')
  } catch {
    return undefined
  }
}

describe('linear-time patterns answer as the u-flag RegExp', () => {
  it('on generated patterns and strings', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 12 }), (source, inputs) => {
        const native = nativeOrUndefined(source)
        fc.pre(native !== undefined)
        const linear = compileLinearPattern(source)
        for (const input of inputs) {
          // V8 tries `\B` between the two halves of a surrogate pair even under the `u` flag,
          // where the standard reads the input as code points (RE2 does): a known difference.
          if (source.includes('\\B') && /[\u{10000}-\u{10FFFF}]/u.test(input)) continue
          expect({ source, input, result: linear.test(input) }).toEqual({
            source,
            input,
            result: native!.test(input),
          })
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.SEED ?? 2126) },
    )
  })

  it('on generated leading lookaheads (^(?=a)(?!b)rest: anchored tests joined by and)', () => {
    const lookaheads = fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(
        lookaheads,
        pattern,
        fc.array(text, { minLength: 1, maxLength: 12 }),
        (heads, rest, inputs) => {
          const source = `^${heads.map(([negated, body]) => `(?${negated ? '!' : '='}${body})`).join('')}${rest}`
          const native = nativeOrUndefined(source)
          fc.pre(native !== undefined && !rest.includes('|'))
          const linear = compileLinearPattern(source)
          for (const input of inputs) {
            if (source.includes('\\B') && /[\u{10000}-\u{10FFFF}]/u.test(input)) continue
            expect({ source, input, result: linear.test(input) }).toEqual({
              source,
              input,
              result: native!.test(input),
            })
          }
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.SEED ?? 2126) },
    )
  })

  it('on patterns real tool schemas use', () => {
    const cases: [string, string[]][] = [
      ['^[a-zA-Z0-9_.-]+@[a-zA-Z0-9-]+\\.[a-z]{2,}$', ['a.b@ex.com', 'a@b', '@x.co']],
      ['^\\d{4}-\\d{2}-\\d{2}$', ['2024-01-31', '2024-1-31', '٢٠٢٤-01-31']],
      ['^(\\+|-)?\\d+(\\.\\d+)?$', ['+1.5', '1.', '-0']],
      ['^[^\\s]+$', ['abc', 'a b', 'a\u00a0b']],
      ['^.*$', ['one line', 'two\nlines', 'x\u2028y']],
      ['\\bcat\\b', ['a cat sat', 'concat', 'écat']],
      ['^\\p{Lu}\\p{Ll}+$', ['Ωmega', 'Hello', 'hello']],
      ['^(?<year>\\d{4})$', ['2024', '24']],
      ['^https?://[^/]+(/.*)?$', ['https://x.io/a', 'ftp://x']],
      ['^[\\u{1F600}-\\u{1F64F}]+$', ['😀😃', 'a']],
      ['^a{1,1000}$', ['a', 'a'.repeat(1000), 'a'.repeat(1001)]],
      // zod v4's email pattern and a password rule: leading lookaheads.
      [
        "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
        ['a.b@ex.com', '.a@ex.com', 'a..b@ex.com', 'a@b'],
      ],
      ['^(?=.*\\d)(?=.*[a-z])(?!.*\\s).{8,}$', ['abcdefg1', 'abcdefgh', 'abc defg1', 'a1']],
    ]
    for (const [source, inputs] of cases) {
      const linear = compileLinearPattern(source)
      const native = new RegExp(source, 'u')
      for (const input of inputs)
        expect([source, input, linear.test(input)]).toEqual([source, input, native.test(input)])
    }
  })
})

describe('the lazy DFA', () => {
  it('drops and rebuilds its cache on a pattern with 2^18 states, answering as RegExp', () => {
    const source = '^(a|b)*a(a|b){17}$'
    const dfa = new LazyDfa(buildNfa(ecmaPatternToRe2(source))!)
    const native = new RegExp(source, 'u')
    // xorshift32: every bit has a long period (an LCG's low bits repeat too soon to visit the states).
    let seed = 2463534242
    const random = () => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return seed >>> 0
    }
    // The cache holds 2^16 / 4 classes = 16 384 states and a random text reaches a new one at
    // almost every character, so each 40 000-character text drops and rebuilds it twice before
    // its tail decides the answer (100 000 characters under DSH_LONG=1).
    const length = process.env.DSH_LONG === '1' ? 100_000 : 40_000
    for (const tail of ['a'.repeat(18), 'b'.repeat(18), `a${'b'.repeat(17)}`]) {
      const text = Array.from({ length }, () => ((random() >> 16) & 1 ? 'a' : 'b')).join('') + tail
      expect([tail, dfa.test(text)]).toEqual([tail, native.test(text)])
    }
    expect((dfa as unknown as { epoch: number }).epoch).toBeGreaterThanOrEqual(6)
  })

  it('leaves \\b and \\p{…} to re2js', () => {
    expect(buildNfa(ecmaPatternToRe2('\\bcat\\b'))).toBeUndefined()
    expect(buildNfa(ecmaPatternToRe2('^\\p{Lu}+$'))).toBeUndefined()
    expect(buildNfa(ecmaPatternToRe2('^(a+)+$'))).toBeDefined()
  })
})

describe('patterns only a backtracking engine can run are refused at registration', () => {
  it.each([
    ['(a)\\1', 'backreferences'],
    ['(?<x>a)\\k<x>', 'backreferences'],
    ['(?=a)a', 'lookahead'],
    ['(?!a)b', 'lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'lookbehind'],
    ['a{1001}', 'invalid repeat count'],
    ['\\p{Emoji}', 'Unicode property'],
  ])('%s', (source, reason) => {
    expect(() => compileJsonSchemaValidator({ type: 'string', pattern: source })).toThrow(
      UnsupportedJsonSchemaError,
    )
    expect(() => compileJsonSchemaValidator({ patternProperties: { [source]: true } })).toThrow(
      /\$\.patternProperties.*refused/,
    )
    expect(() => ecmaPatternToRe2(source) && compileLinearPattern(source)).toThrow(PatternRefusal)
    try {
      compileJsonSchemaValidator({ type: 'string', pattern: source })
    } catch (error) {
      expect((error as Error).message).toContain(reason)
      expect((error as Error).message).toContain('$.pattern')
    }
  })
})

describe('nested-quantifier patterns cost one pass', () => {
  it('^(a+)+$ on a near-match of 10,000 characters answers at once (backtracking: 2^10000 steps)', () => {
    const validate = compileJsonSchemaValidator({
      type: 'object',
      properties: { q: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+x+)+y$': { type: 'string' } },
    })
    const started = performance.now()
    expect(validate({ q: `${'a'.repeat(10_000)}!` })).toHaveLength(1)
    expect(validate({ [`${'x'.repeat(10_000)}`]: 1 })).toEqual([])
    expect(validate({ q: 'a'.repeat(10_000) })).toEqual([])
    // Generous: the backtracking engine needed 10 s for 28 characters.
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
