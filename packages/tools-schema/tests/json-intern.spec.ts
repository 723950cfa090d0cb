// Canonical tokens (uniqueItems, enum and const of containers): JSON equality, computed once
// per container per validation, and safe on values that are not JSON.
import fc from 'fast-check'
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

describe('canonical tokens agree with JSON equality (property)', () => {
  // Reference: JSON text with sorted keys (numbers print alike for 1 and 1.0, -0 as 0).
  const canonical = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>
      return `{${Object.keys(record)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
        .join(',')}}`
    }
    return JSON.stringify(value)
  }
  // Small alphabets, so that equal values (and values equal but for order or one member) are common.
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(0, -0, 1, 1.5, 'a', 'b', '', true, false, null),
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('tree'), { maxKeys: 3 }),
    ),
  }))

  for (const [name, make] of [
    ['seeded hashes', () => new JsonInterner()],
    // Every container in one bucket: member-by-member comparison, then the overflow's text keys.
    ['every hash colliding', () => new JsonInterner(() => 7)],
  ] as const) {
    it(`${name}: equal tokens exactly when the canonical texts are equal`, () => {
      fc.assert(
        fc.property(fc.array(tree, { minLength: 2, maxLength: 40 }), (values) => {
          const interner = make()
          const tokens = values.map((value) => interner.token(value))
          const texts = values.map(canonical)
          for (let i = 0; i < values.length; i++)
            for (let j = 0; j < values.length; j++)
              expect(tokens[i] === tokens[j]).toBe(texts[i] === texts[j])
        }),
        { seed: 2112, numRuns: 400 },
      )
    })
  }
})
