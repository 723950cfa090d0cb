import { describe, expect, it } from 'vitest'
import { cutToLimit } from '../../src/runtime-kit/cut-to-limit'

describe('cutToLimit', () => {
  it('keeps text at or under the limit as it is', () => {
    expect(cutToLimit('', 0)).toBe('')
    expect(cutToLimit('abc', 3)).toBe('abc')
  })

  it('cuts longer text to exactly the limit, ending with the original length', () => {
    for (const length of [101, 1_000, 1_000_000]) {
      const cut = cutToLimit('m'.repeat(length), 100)
      expect(cut).toHaveLength(100)
      expect(cut).toMatch(
        new RegExp(`^m+ … \\(cut from ${length} characters: the program may receive at most 100\\)$`),
      )
    }
  })

  it('never exceeds a limit shorter than its own note', () => {
    for (const max of [0, 1, 10, 40]) expect(cutToLimit('x'.repeat(1_000), max).length).toBe(max)
  })
})
