import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonTextShapeIssue, valueTextIssue } from '../../src/runtime-kit/json-text-shape'

/** The exact shape of a parsed JSON value: every value counts one; depth of arrays and objects. */
function shapeOf(value: unknown): { nodes: number; depth: number } {
  if (typeof value !== 'object' || value === null) return { nodes: 1, depth: 0 }
  let nodes = 1
  let depth = 0
  for (const child of Object.values(value)) {
    const inner = shapeOf(child)
    nodes += inner.nodes
    depth = Math.max(depth, inner.depth)
  }
  return { nodes, depth: depth + 1 }
}

describe('jsonTextShapeIssue', () => {
  it('counts exactly the values and depth JSON.parse finds, with any spacing (seeded JSON)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        const { nodes, depth } = shapeOf(JSON.parse(text))
        expect(jsonTextShapeIssue(text, { maxNodes: nodes, maxDepth: depth })).toBeUndefined()
        expect(jsonTextShapeIssue(text, { maxNodes: nodes - 1, maxDepth: depth })).toEqual({
          limit: 'maxNodes',
          max: nodes - 1,
        })
        if (depth > 0) {
          expect(jsonTextShapeIssue(text, { maxNodes: nodes, maxDepth: depth - 1 })).toEqual({
            limit: 'maxDepth',
            max: depth - 1,
          })
        }
      }),
      { seed: 21, numRuns: 400 },
    )
  })

  it('skips brackets, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ 'a,[{': 'x\\",]}[{,', b: ['\\', '"'] })
    expect(jsonTextShapeIssue(text, { maxNodes: 5, maxDepth: 2 })).toBeUndefined()
    expect(jsonTextShapeIssue(text, { maxNodes: 4, maxDepth: 2 })).toMatchObject({ limit: 'maxNodes' })
  })

  it('stops at the first limit passed: a million keys cost a bounded number of steps', () => {
    let reads = 0
    const text = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`
    const original = String.prototype.charCodeAt
    String.prototype.charCodeAt = function (this: string, index: number) {
      reads++
      return original.call(this, index)
    }
    try {
      expect(jsonTextShapeIssue(text, { maxNodes: 1_000, maxDepth: 8 })).toEqual({
        limit: 'maxNodes',
        max: 1_000,
      })
    } finally {
      String.prototype.charCodeAt = original
    }
    expect(reads).toBeLessThan(20_000)
  })
})

describe('valueTextIssue', () => {
  it('names the value and the runtime config key', () => {
    const limits = { maxValueNodes: 2, maxValueDepth: 1 }
    expect(valueTextIssue('[1,2]', 'arguments for f', limits)).toContain(
      'arguments for f holds more than 2 JSON values (`maxValueNodes`)',
    )
    expect(valueTextIssue('[[1]]', 'the result', limits)).toBe(
      'the result nests more than 1 level deep (`maxValueDepth`)',
    )
    expect(valueTextIssue('[1]', 'the result', limits)).toBeUndefined()
  })
})
