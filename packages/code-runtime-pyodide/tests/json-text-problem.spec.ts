import { describe, expect, it } from 'vitest'
import { jsonTextProblem } from '../src/run/json-text-problem'

describe('jsonTextProblem (the host re-check of a result text)', () => {
  it.each([
    ['9007199254740991', undefined],
    ['-9007199254740991', undefined],
    ['[1.5, -0, 1e+300, 12345678901234567890.5, 1e-400]', undefined],
    ['{"9007199254740993": "12345678901234567890123", "a\\"1e999": 1}', undefined],
    ['"\\\\"', undefined],
    ['9007199254740992', 'the integer 9007199254740992 is beyond 2**53-1'],
    ['[-9007199254740993]', 'the integer -9007199254740993 is beyond 2**53-1'],
    ['{"a": [1, 12345678901234567890123]}', 'the integer 12345678901234567890123 is beyond 2**53-1'],
    ['{"\\\\": 1e400}', 'the number 1e400 is beyond the double range'],
    ['[-1E+309]', 'the number -1E+309 is beyond the double range'],
  ])('%s → %s', (text, problem) => {
    expect(jsonTextProblem(text, 1000)).toBe(problem)
  })

  it('counts nesting outside strings only, up to the cap', () => {
    expect(jsonTextProblem(`${'['.repeat(3)}${']'.repeat(3)}`, 3)).toBeUndefined()
    expect(jsonTextProblem(`[{"a": ${'['.repeat(2)}${']'.repeat(2)}}]`, 3)).toBe(
      'a value nested deeper than 3 levels',
    )
    expect(jsonTextProblem(`["${'['.repeat(10)}", {"{{{{": 1}]`, 3)).toBeUndefined()
    expect(jsonTextProblem('['.repeat(1_000_000), 1000)).toBe('a value nested deeper than 1000 levels')
  })

  it('shortens a huge literal in its message', () => {
    expect(jsonTextProblem('9'.repeat(100_000), 1000)).toBe(
      `the number ${'9'.repeat(40)}… is beyond the double range`,
    )
    expect(jsonTextProblem(`-${'1'.repeat(60)}`, 1000)).toBe(
      `the integer -${'1'.repeat(39)}… is beyond 2**53-1`,
    )
  })
})
