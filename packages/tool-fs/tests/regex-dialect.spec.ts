import { describe, expect, it } from 'vitest'
import { assertLinearTimeRegex } from '../src/grep/regex-dialect'

describe('assertLinearTimeRegex', () => {
  it.each([
    ['a(?=b)', 'lookahead'],
    ['a(?!b)', 'negative lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negative lookbehind'],
    ['(a)\\1', 'backreference'],
    ['(a)(b)\\2', 'backreference'],
    ['(?<n>a)\\k<n>', 'named backreference'],
    ['(?>a)', 'atomic group'],
  ])('names the unsupported construct in %s (%s)', (pattern, construct) => {
    expect(() => assertLinearTimeRegex(pattern)).toThrow(
      `unsupported regular expression syntax: ${construct}`,
    )
  })

  it.each([
    'a\\(?=b',
    '[(?=]',
    '[\\1]',
    '\\\\(x)',
    '[]\\1(?=]x',
    '[^]\\1(?!]x',
    '(?<name>a)',
    '(?:a|b)+',
    '(?i)abc',
    '\\d+\\s*\\w',
  ])('accepts %s (escaped, in a class, or supported)', (pattern) => {
    expect(() => assertLinearTimeRegex(pattern)).not.toThrow()
  })

  it('refuses patterns longer than 4096 characters', () => {
    expect(() => assertLinearTimeRegex('a'.repeat(4096))).not.toThrow()
    expect(() => assertLinearTimeRegex('a'.repeat(4097))).toThrow(/longer than 4096/)
  })
})
