import { afterAll, describe, expect, it } from 'vitest'
import { checkProgramShape, MAX_BRACKET_DEPTH, MAX_PROGRAM_CHARS } from '../src/strip/program-shape'
import { TypeStripper } from '../src/strip/type-stripper'

const stripper = new TypeStripper()
afterAll(() => stripper.dispose())

const nested = (open: string, close: string, n: number) => `return ${open.repeat(n)}1${close.repeat(n)}`
/** Deep constructs that are not brackets, so only the stripper's isolation contains them. */
const deepWithoutBrackets = [
  `return ${'- '.repeat(30_000)}1`,
  `return ${'!'.repeat(30_000)}1`,
  `return ${'a ? b : '.repeat(30_000)}c`,
  `if (a) {}${' else if (a) {}'.repeat(30_000)}`,
]

async function expectHealthy(): Promise<void> {
  expect(await stripper.strip('const x: number = 1\nreturn x')).toMatchObject({ ok: true })
}

describe('program shape pre-check', () => {
  it('refuses deep bracket nesting of every bracket kind and oversized programs', () => {
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
    ] as const) {
      expect(checkProgramShape(nested(open, close, MAX_BRACKET_DEPTH + 1))).toMatch(/levels deep/)
      expect(checkProgramShape(nested(open, close, MAX_BRACKET_DEPTH))).toBeUndefined()
    }
    expect(checkProgramShape(`return ${'((((('.repeat(60)}`)).toMatch(/levels deep/)
    expect(checkProgramShape('x'.repeat(MAX_PROGRAM_CHARS + 1))).toMatch(/too large/)
    // Closing brackets never go below zero, so they cannot pay for later openings.
    expect(checkProgramShape(`${')'.repeat(1000)}${'('.repeat(MAX_BRACKET_DEPTH + 1)}`)).toMatch(
      /levels deep/,
    )
  })
})

describe('type stripper isolation', () => {
  it('fails deep, huge and malformed programs on their own and keeps stripping normal ones', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await stripper.strip(nested('(', ')', 1000))).toEqual({
        ok: false,
        message: expect.stringMatching(/levels deep/),
      })
      await expectHealthy()
    }
    expect(await stripper.strip(`const s = '${'x'.repeat(MAX_PROGRAM_CHARS)}'`)).toMatchObject({ ok: false })
    await expectHealthy()
    for (const malformed of ['let x: = 2', 'return ((1', '})(process)(', '\u0000\uffff', 'enum E { A }']) {
      expect(await stripper.strip(malformed)).toMatchObject({ ok: false })
      await expectHealthy()
    }
  })

  it('replaces the stripper after an internal failure, so later programs still strip', async () => {
    const before = stripper.generation
    let internalFailures = 0
    for (const code of [...deepWithoutBrackets, deepWithoutBrackets[0] as string]) {
      const result = await stripper.strip(code)
      if (!result.ok && /could not process/.test(result.message)) internalFailures += 1
      await expectHealthy()
    }
    // The unary chains overflow the WebAssembly stripper (the corruption that once disabled it).
    expect(internalFailures).toBeGreaterThan(0)
    expect(stripper.generation).toBe(before + internalFailures)
  })

  it('strips concurrent programs in order, each with its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stripper.strip(i % 5 === 0 ? `return ${'-'.repeat(40_000)}1` : `return ${i} as number`),
      ),
    )
    results.forEach((result, i) => {
      if (i % 5 !== 0) expect(result).toEqual({ ok: true, source: expect.stringContaining(`return ${i}`) })
      else expect(result.ok).toBe(false)
    })
  })

  it('refuses programs after dispose', async () => {
    const own = new TypeStripper()
    await own.dispose()
    expect(await own.strip('return 1')).toEqual({ ok: false, message: 'the code runtime was disposed' })
  })
})
