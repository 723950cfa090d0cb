// Property: on the common subset of regex syntax (literals, classes, `.`, `*`, `+`, `?`,
// alternation, groups, anchors), grep's RE2 dialect finds exactly the lines JavaScript's RegExp
// finds, case-sensitive and case-insensitive, on random text. Seeded; GREP_PROPERTY_RUNS=1000
// for a longer local run.
import fs from 'node:fs/promises'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

const RUNS = Number(process.env.GREP_PROPERTY_RUNS ?? 60)
const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'x', ' ', '-', '1', '.']

const literal = fc.constantFrom('a', 'b', 'c', 'A', 'x', ' ', '-', '1', '\\.')
const atom: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: literal },
  { weight: 1, arbitrary: fc.constant('.') },
  { weight: 1, arbitrary: fc.constantFrom('[abc]', '[^a ]', '[a-c1]', '[A-Bx]', '\\d', '\\w') },
)
const regex: fc.Arbitrary<string> = fc.letrec<{ expr: string; term: string; piece: string }>((tie) => ({
  piece: fc.oneof(
    { weight: 4, arbitrary: atom },
    { weight: 1, arbitrary: tie('expr').map((inner) => `(${inner})`) },
    { weight: 1, arbitrary: tie('expr').map((inner) => `(?:${inner})`) },
  ),
  term: fc
    .array(
      fc
        .tuple(tie('piece'), fc.constantFrom('', '', '', '*', '+', '?'))
        .map(([piece, quantifier]) => piece + quantifier),
      { minLength: 1, maxLength: 4 },
    )
    .map((pieces) => pieces.join('')),
  expr: fc.array(tie('term'), { minLength: 1, maxLength: 3 }).map((terms) => terms.join('|')),
})).expr
const anchored = fc
  .tuple(fc.boolean(), regex, fc.boolean())
  .map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`)
const lines = fc.array(
  fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((chars) => chars.join('')),
  {
    minLength: 1,
    maxLength: 25,
  },
)

describe('grep dialect agrees with JavaScript RegExp on the common subset', () => {
  it(
    'the same lines match, with and without case_insensitive',
    async () => {
      const root = await tempDir()
      const file = path.join(root, 'text.txt')
      const { ok } = await fsRuntime({ roots: [root], maxGrepMatches: 1000 })
      await fc.assert(
        fc.asyncProperty(anchored, lines, fc.boolean(), async (pattern, text, caseInsensitive) => {
          await fs.writeFile(file, `${text.join('\n')}\n`)
          const expected = new RegExp(pattern, caseInsensitive ? 'i' : '')
          const want = text.flatMap((line, index) => (expected.test(line) ? [index + 1] : []))
          const value = await ok('grep', { pattern, path: 'text.txt', case_insensitive: caseInsensitive })
          const got = (value.files[0]?.matches ?? []).map((match: { number: number }) => match.number)
          expect(got).toEqual(want)
        }),
        { seed: 20261201, numRuns: RUNS },
      )
    },
    10_000 + RUNS * 100,
  )
})
