// Model-chosen patterns that stall a backtracking engine (or a naive glob matcher) must finish
// with a result or a clear INVALID_PATTERN error, and the host's event loop must keep running
// while they do: grep matches with RE2 on a worker thread, glob compiles to an RE2 program.
import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { beatsDuring } from './fixtures/heartbeat'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

/** Lines of `a`s (and near-misses) that make backtracking engines explode on the patterns below. */
async function hostileTree(lineLength: number, lines: number) {
  const root = await tempDir()
  const body = Array.from({ length: lines }, (_, i) => `${'a'.repeat(lineLength)}${i % 2 === 0 ? '!' : ''}`)
  await fs.writeFile(path.join(root, 'as.txt'), `${body.join('\n')}\n`)
  await fs.writeFile(path.join(root, 'short.txt'), 'aaab\nxyz\n')
  return root
}

// The CI size keeps the file quick to match; HOSTILE_LOCAL=1 makes it big enough to feel.
const LINE = process.env.HOSTILE_LOCAL === '1' ? 1_000_000 : 50_000

// [pattern, matching lines]: four lines of `a`s (two ending in `!`), then `aaab` and `xyz`.
const CATASTROPHIC_REGEXES: [string, number][] = [
  ['^(a+)+$', 2],
  ['(a|aa)*b', 1],
  ['(a*)*b', 1],
  ['(.*a){20}', 4],
  ['(.*a){20}x', 0],
  ['^(a|a?)+$', 2],
  ['(\\w+\\s?)*$', 6],
  ['(a+)+(b+)+c', 0],
  [`(${Array.from({ length: 200 }, (_, i) => `a${'a'.repeat(i % 7)}|`).join('')}b)*c`, 0],
  ['((a{10}){10}){10}x', 0],
]

describe('grep: no regex stalls the host', () => {
  it.each(CATASTROPHIC_REGEXES)('/%s/ finishes with the right count (%i)', async (pattern, expected) => {
    const root = await hostileTree(LINE, 4)
    const { call } = await fsRuntime({ roots: [root] })
    const result = await call('grep', { pattern })
    expect(result.isError, result.isError ? result.error.message : '').toBe(false)
    if (result.isError) return
    const value = result.value as { filesSearched: number; total: number }
    expect(value.filesSearched).toBe(2)
    expect(value.total).toBe(expected)
  })

  it('the event loop keeps beating while grep matches ^(a+)+$ over a large input', async () => {
    // Two megabytes of `a`s: the quoted attack, at a size a backtracking engine would never finish.
    const root = await hostileTree(500_000, 4)
    const { call } = await fsRuntime({ roots: [root] })
    const { result, beats } = await beatsDuring(() => call('grep', { pattern: '^(a+)+$' }))
    expect(result.isError).toBe(false)
    if (!result.isError) expect((result.value as { total: number }).total).toBe(2)
    // A blocked thread would let the 1 ms interval fire at most once after the call.
    expect(beats).toBeGreaterThan(10)
  })

  it.each([
    ['(?=a)', 'lookahead'],
    ['a(?!b)', 'negative lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negative lookbehind'],
    ['(a)\\1', 'backreference'],
    ['(?<x>a)\\k<x>', 'named backreference'],
    ['(?>a+)b', 'atomic group'],
  ])('/%s/ is refused as INVALID_PATTERN naming the %s', async (pattern, construct) => {
    const root = await hostileTree(10, 1)
    const { fails } = await fsRuntime({ roots: [root] })
    const message = await fails('grep', { pattern }, 'INVALID_PATTERN')
    expect(message).toContain(`unsupported regular expression syntax: ${construct}`)
  })

  it('accepts the JavaScript spellings RE2 lacks: \\uXXXX, (?<name>…), [^]', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'Alpha\nbeta\n')
    const { ok } = await fsRuntime({ roots: [root] })
    expect((await ok('grep', { pattern: '^\\u0041' })).total).toBe(1)
    expect((await ok('grep', { pattern: '(?<first>b)eta' })).total).toBe(1)
    expect((await ok('grep', { pattern: '^[^]' })).total).toBe(2)
    expect((await ok('grep', { pattern: 'ALPHA', case_insensitive: true })).total).toBe(1)
  })

  it('refuses repeat counts RE2 cannot compile small, and over-long patterns, without searching', async () => {
    const root = await hostileTree(10, 1)
    const { fails } = await fsRuntime({ roots: [root] })
    expect(await fails('grep', { pattern: '(a{1000}){1000}' }, 'INVALID_PATTERN')).toMatch(/repeat count/)
    expect(await fails('grep', { pattern: 'a'.repeat(5000) }, 'INVALID_PATTERN')).toMatch(/longer than 4096/)
  })
})

describe('glob: no pattern stalls the host', () => {
  async function deepTree() {
    const root = await tempDir()
    // A long name of `a`s is the worst case for `*a*a*…b`; nested directories for `**/**/…`.
    const deep = path.join(root, ...Array.from({ length: 12 }, () => 'a'.repeat(8)))
    await fs.mkdir(deep, { recursive: true })
    await fs.writeFile(path.join(deep, `${'a'.repeat(200)}.txt`), '')
    await fs.writeFile(path.join(root, `${'a'.repeat(200)}b`), '')
    await fs.writeFile(path.join(root, 'x.ts'), '')
    return root
  }

  it.each([
    ['the quoted *a*a*a*a*a*a*a*ab', '*a*a*a*a*a*a*a*ab', 1],
    ['31 stars', `${'*a'.repeat(30)}*c`, 0],
    ['30 globstars', `${'**/'.repeat(30)}*.txt`, 1],
    ['globstars and stars', `${'**/'.repeat(30)}*a*a*a*a*a*a*a*a.txt`, 1],
    ['a 201-way brace list', `{${Array.from({ length: 200 }, (_, i) => `n${i}`).join(',')},x}.ts`, 1],
    ['nested overlapping braces', `${'{a,aa,'.repeat(8)}b${'}'.repeat(8)}`, 0],
    ['28 question marks between stars', `**/${'*?'.repeat(28)}x`, 0],
  ])('%s finishes with the right count', async (_label, pattern, expected) => {
    const root = await deepTree()
    const { ok } = await fsRuntime({ roots: [root] })
    expect((await ok('glob', { pattern })).total).toBe(expected)
  })

  it('the event loop keeps beating while glob walks a 1,500-file tree with a hostile pattern', async () => {
    const root = await tempDir()
    for (let dir = 0; dir < 30; dir++) {
      const directory = path.join(root, `${'a'.repeat(40)}-${dir}`)
      await fs.mkdir(directory)
      await Promise.all(
        Array.from({ length: 50 }, (_, file) =>
          fs.writeFile(path.join(directory, `${'a'.repeat(100)}${file}`), ''),
        ),
      )
    }
    const { ok } = await fsRuntime({ roots: [root] })
    const pattern = `${'**/'.repeat(20)}*a*a*a*a*a*a*a*a*a*a*a*a*ab`
    const { result, beats } = await beatsDuring(() => ok('glob', { pattern }))
    expect(result.total).toBe(0)
    expect(beats).toBeGreaterThan(3)
  })

  it.each([
    ['a 2,000-character pattern', 'a'.repeat(2000), /longer than 1024/],
    ['100 stars', '*x'.repeat(100), /more than 64 wildcards/],
    ['a 301-way brace list', `{${'a,'.repeat(300)}b}`, /more than 256 brace alternatives/],
    ['braces nested 9 deep', `${'{a,'.repeat(9)}b${'}'.repeat(9)}`, /nested deeper than 8/],
    ['an extglob', '+(a|b)', /extglob/],
    ['a negated glob', '!*.ts', /negated/],
  ])('%s is refused with a clear INVALID_PATTERN', async (_label, pattern, why) => {
    const root = await deepTree()
    const { fails } = await fsRuntime({ roots: [root] })
    expect(await fails('glob', { pattern }, 'INVALID_PATTERN')).toMatch(why)
    expect(await fails('grep', { pattern: 'x', glob: pattern }, 'INVALID_PATTERN')).toMatch(why)
  })
})
