import { afterAll, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchemaNode } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

// An accessor among an object's undeclared members is not JSON. The generated check must not
// pass it (nor run it) where the interpreter reports it: both paths give the same violations.
const schemas: readonly [string, JsonSchemaNode][] = [
  ['additionalProperties: true', { type: 'object', additionalProperties: true, properties: {} }],
  ['an additionalProperties schema', { type: 'object', additionalProperties: { type: 'number' } }],
  ['a matching patternProperties', { type: 'object', patternProperties: { '^g': { type: 'number' } } }],
  ['an open object with no keywords', { type: 'object' }],
]

describe('accessors among undeclared members', () => {
  afterAll(() => setFastChecksEnabled(true))

  it.each(schemas)('are reported, never invoked, by both validator paths under %s', (_label, schema) => {
    let reads = 0
    const value = Object.defineProperty({}, 'g', {
      enumerable: true,
      get: () => {
        reads += 1
        return 1
      },
    })
    const results = [true, false].map((fast) => {
      setFastChecksEnabled(fast)
      return compileJsonSchemaValidator(schema)(value)
    })
    expect(results[0]).toEqual(results[1])
    expect(results[0]).toHaveLength(1)
    expect(results[0]![0]!.message).toMatch(/accessor property/)
    expect(reads).toBe(0)
  })
})
