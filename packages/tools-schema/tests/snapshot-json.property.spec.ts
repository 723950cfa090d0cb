import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { snapshotJson } from '../src/index'

describe('snapshotJson properties', () => {
  it('any accepted value round-trips through JSON.stringify/JSON.parse unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let copy: unknown
        try {
          copy = snapshotJson(value)
        } catch {
          return // rejected (e.g. -0): nothing to check
        }
        expect(JSON.parse(JSON.stringify(copy))).toStrictEqual(copy)
        expect(copy).toStrictEqual(value)
      }),
      { numRuns: 300 },
    )
  })

  it('accepts every value produced by JSON.parse', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = JSON.parse(text) as unknown
        expect(snapshotJson(parsed)).toStrictEqual(parsed)
      }),
      { numRuns: 300 },
    )
  })
})
