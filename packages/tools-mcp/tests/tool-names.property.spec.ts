import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assignToolNames, sanitizeName } from '../src/client/tool-names'

const SAFE = /^[A-Za-z0-9_-]{1,64}$/

describe('assignToolNames', () => {
  it('gives every remote name a unique, provider-safe local name, whatever the order', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.uniqueArray(
          fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('a b', 'a_b', 'a?b', 'x'.repeat(70))),
          {
            maxLength: 30,
          },
        ),
        (prefix, names) => {
          const forward = assignToolNames(prefix, names)
          const backward = assignToolNames(prefix, [...names].reverse())
          const locals = [...forward.names.values()]
          for (const local of locals) expect(local).toMatch(SAFE)
          expect(new Set(locals).size).toBe(names.length)
          expect([...backward.names.entries()].sort()).toEqual([...forward.names.entries()].sort())
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps names that need no change, and reports every rename with its reason', () => {
    const { names, renamed } = assignToolNames('s__', ['a b', 'a_b', 'a?b', 'ok-name'])
    expect(names.get('a_b')).toBe('s__a_b')
    expect(names.get('ok-name')).toBe('s__ok-name')
    expect(names.get('a b')).toBe('s__a_b_2')
    expect(names.get('a?b')).toBe('s__a_b_3')
    expect(renamed).toEqual([
      { remote: 'a b', local: 's__a_b_2', reason: 'collision' },
      { remote: 'a?b', local: 's__a_b_3', reason: 'collision' },
    ])
  })

  it('sanitizes by code point and never yields an empty name', () => {
    expect(sanitizeName('ä😀b')).toBe('__b')
    expect(assignToolNames('', ['']).names.get('')).toBe('_')
  })
})
