import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonTextExceeds } from '../../src/runtime-kit/json-text-bound'

/** A value of `2 ** levels` leaves in a few hundred bytes: every level shares the one below. */
function dagBomb(levels: number): unknown {
  let value: unknown = ['x']
  for (let i = 0; i < levels; i++) value = [value, value]
  return value
}

describe('jsonTextExceeds', () => {
  it('is a lower bound: never true when the text fits (seeded JSON values)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const length = JSON.stringify(value).length
        expect(jsonTextExceeds(value, length)).toBe(false)
      }),
      { seed: 10, numRuns: 300 },
    )
  })

  it('counts strings, keys and punctuation, so a value clearly over the limit is caught', () => {
    expect(jsonTextExceeds({ text: 'x'.repeat(100) }, 100)).toBe(true)
    expect(
      jsonTextExceeds(
        Array.from({ length: 50 }, () => 0),
        50,
      ),
    ).toBe(true)
    expect(
      jsonTextExceeds(
        Array.from({ length: 50 }, () => 0),
        200,
      ),
    ).toBe(false)
  })

  it('counts every occurrence of a shared reference (a DAG bomb of 2^60 leaves)', () => {
    expect(jsonTextExceeds(dagBomb(60), 1_000_000)).toBe(true)
    const shared = 'y'.repeat(1000)
    expect(
      jsonTextExceeds(
        Array.from({ length: 10 }, () => ({ shared })),
        9_000,
      ),
    ).toBe(true)
  })

  it('stops on a cycle instead of walking forever', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(jsonTextExceeds(cycle, 10_000)).toBe(true)
  })

  it('refuses a huge array by its length without walking it', () => {
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    expect(jsonTextExceeds(sparse, 1_000)).toBe(true)
  })

  it('measures each shared object once: a DAG bomb of 2^1000 leaves is settled in linear work', () => {
    let reads = 0
    let value: unknown = ['x']
    for (let i = 0; i < 1000; i++) {
      const inner = value
      value = [inner, inner]
    }
    const counted = new Proxy(value as object, {
      get(target, key) {
        reads++
        return Reflect.get(target, key)
      },
    })
    expect(jsonTextExceeds(counted, Number.MAX_SAFE_INTEGER)).toBe(true)
    expect(reads).toBeLessThan(10)
    expect(jsonTextExceeds(dagBomb(10), JSON.stringify(dagBomb(10)).length)).toBe(false)
  })
})
