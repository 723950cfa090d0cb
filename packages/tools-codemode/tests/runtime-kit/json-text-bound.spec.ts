import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonTextExceeds, jsonValueIssue } from '../../src/runtime-kit/json-text-bound'
import { jsonTextShapeIssue } from '../../src/runtime-kit/json-text-shape'

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

describe('jsonValueIssue', () => {
  it('counts the same values and depth as the text scan of the value’s JSON (seeded JSON)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value)
        let nodes = 1
        while (jsonTextShapeIssue(text, { maxNodes: nodes, maxDepth: 1_000 }) !== undefined) nodes++
        let depth = 0
        while (jsonTextShapeIssue(text, { maxNodes: nodes, maxDepth: depth }) !== undefined) depth++
        expect(jsonValueIssue(value, { maxNodes: nodes, maxDepth: depth })).toBeUndefined()
        expect(jsonValueIssue(value, { maxNodes: nodes - 1 })).toBe('maxNodes')
        if (depth > 0) expect(jsonValueIssue(value, { maxDepth: depth - 1 })).toBe('maxDepth')
      }),
      { seed: 21, numRuns: 200 },
    )
  })

  it('counts every occurrence of a shared reference, walking it once', () => {
    expect(jsonValueIssue(dagBomb(40), { maxNodes: 1_000_000 })).toBe('maxNodes')
    expect(jsonValueIssue(dagBomb(40), { maxDepth: 40 })).toBe('maxDepth')
    expect(jsonValueIssue(dagBomb(10), { maxNodes: 2 ** 11 * 2, maxDepth: 11 })).toBeUndefined()
    const cycle: unknown[] = []
    cycle.push(cycle)
    expect(jsonValueIssue(cycle, { maxNodes: 10 })).toBe('cycle')
  })

  it('refuses an object from its key count, without reading its values', () => {
    // 200 000 keys, four times the bound: reading any value would show in `reads`.
    let reads = 0
    const wide = new Proxy(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i])), {
      get: (target, key) => {
        reads++
        return Reflect.get(target, key)
      },
    })
    expect(jsonValueIssue(wide, { maxNodes: 50_000 })).toBe('maxNodes')
    expect(reads).toBe(0)
  })
})
