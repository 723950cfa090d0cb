// Canonical tokens (uniqueItems, enum and const of containers): JSON equality, computed once
// per container per validation, and safe on values that are not JSON.
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { JsonInterner } from '../src/internal/json-intern'

describe('canonical tokens', () => {
  it('equal exactly for JSON-equal values: 1 and 1.0, -0 and 0, any key order', () => {
    const interner = new JsonInterner()
    const token = (value: unknown) => interner.token(value)
    expect(token({ a: [1, { b: -0 }], c: 'x' })).toBe(token({ c: 'x', a: [1.0, { b: 0 }] }))
    expect(token([1, 2])).not.toBe(token([2, 1]))
    expect(token(['1'])).not.toBe(token([1]))
    expect(token({ 'a:1': 1 })).not.toBe(token({ a: '1:1' }))
    expect(token(['a,', 'b'])).not.toBe(token(['a', ',b']))
    expect(token([[]])).not.toBe(token([{}]))
  })

  it('a cyclic value gets a token equal to nothing else, and validation ends', () => {
    for (const fast of [true, false]) {
      setFastChecksEnabled(fast)
      const a: Record<string, unknown> = {}
      a.self = a
      const b: Record<string, unknown> = {}
      b.self = b
      const violations = compileJsonSchemaValidator({ uniqueItems: true })([a, b])
      expect(violations.length).toBeGreaterThan(0)
      expect(violations.some((v) => v.message.includes('cycle'))).toBe(true)
    }
    setFastChecksEnabled(true)
  })

  it('a shared subtree is read once however many items and levels hold it', () => {
    const shared = {
      deep: [
        [1, 2],
        [3, { x: 'y' }],
      ],
    }
    const validate = compileJsonSchemaValidator({ type: 'array', uniqueItems: true })
    expect(validate([shared, { other: shared }, [shared]])).toEqual([])
    expect(
      validate([
        shared,
        {
          deep: [
            [1, 2],
            [3, { x: 'y' }],
          ],
        },
      ]),
    ).toEqual([{ path: '$', message: 'expected unique items, got equal items at 0 and 1' }])
  })
})
