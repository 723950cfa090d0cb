import { describe, expect, it } from 'vitest'
import { compileGlob } from '../src/glob/compile-glob'

const matches = (pattern: string, path: string, basename = false) => compileGlob(pattern, { basename })(path)

describe('compileGlob', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['*.ts', '.hidden.ts', true],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['**/*.ts', '.config/x.ts', true],
    ['src/**', 'src/a/b/c', true],
    ['src/**', 'lib/a', false],
    ['src/**/test-*.js', 'src/test-a.js', true],
    ['src/**/test-*.js', 'src/x/y/test-a.js', true],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/xb', false],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'c.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['[^a-c]x', 'dx', true],
    ['[a-c]x', 'dx', false],
    ['[[:digit:]]*', '7up', true],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['{src,lib}/**/*.{js,{c,m}js}', 'lib/x/a.mjs', true],
    ['a.{b', 'a.{b', true],
    ['a}.b', 'a}.b', true],
    ['[', '[', true],
    ['\\*.ts', '*.ts', true],
    ['\\*.ts', 'a.ts', false],
    ['a(b)|c+.txt', 'a(b)|c+.txt', true],
    ['x.$^', 'x.$^', true],
  ])('%s on %s → %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected)
  })

  it('never lets * or ? or a class cross a / and matches names only in basename mode', () => {
    expect(matches('a*b', 'a/b')).toBe(false)
    expect(matches('a?b', 'a/b')).toBe(false)
    expect(matches('a[/]b', 'a/b')).toBe(false)
    expect(matches('a[!x]b', 'a/b')).toBe(false)
    expect(matches('*.ts', 'src/deep/a.ts', true)).toBe(true)
    expect(matches('*.ts', 'src/deep/a.js', true)).toBe(false)
  })

  it('matches file names containing newlines like any other character', () => {
    expect(matches('a*b', 'a\nb')).toBe(true)
    expect(matches('**/x', 'a\nb/x')).toBe(true)
  })

  it('accepts patterns at the bounds', () => {
    expect(() => compileGlob('a'.repeat(1024))).not.toThrow()
    expect(() => compileGlob('*x'.repeat(64))).not.toThrow()
    expect(() => compileGlob(`{${'a,'.repeat(254)}b}`)).not.toThrow()
    expect(() => compileGlob(`${'{a,'.repeat(8)}b${'}'.repeat(8)}`)).not.toThrow()
  })

  it.each([
    ['a'.repeat(1025), /longer than 1024/],
    ['*x'.repeat(65), /more than 64 wildcards/],
    [`{${'a,'.repeat(256)}b}`, /more than 256 brace alternatives/],
    [`${'{a,'.repeat(9)}b${'}'.repeat(9)}`, /nested deeper than 8/],
    ['@(a|b)', /extglob "@\(…\)"/],
    ['*(a)', /extglob/],
    ['!x', /negated/],
  ])('refuses %s', (pattern, why) => {
    expect(() => compileGlob(pattern)).toThrow(why)
    try {
      compileGlob(pattern)
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_PATTERN' })
    }
  })
})
