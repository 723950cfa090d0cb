// Bounds that restate a type's natural range (safe-integer limits for integers, ±Number.MAX_VALUE
// for numbers — what zod's `.int()` and `z.float64()` emit) are noise in every prompt: the SDK
// text leaves them out, and still shows every real bound. The validator enforces them all.
import { describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  createPyRenderContext,
  jsonSchemaToPy,
  jsonSchemaToTs,
} from '../src/index'

const SAFE = Number.MAX_SAFE_INTEGER
const MAX = Number.MAX_VALUE

function pyText(node: object): string {
  const ctx = createPyRenderContext()
  jsonSchemaToPy({ type: 'object', properties: { v: node } }, ctx.named('Args'))
  return ctx.declarations()
}

function tsText(node: object): string {
  return jsonSchemaToTs({ type: 'object', properties: { v: node } })
}

describe('natural-range bounds in SDK text', () => {
  it('safe-integer limits on an integer are not printed (TypeScript and Python)', () => {
    for (const node of [
      { type: 'integer', minimum: -SAFE, maximum: SAFE },
      { type: 'integer', exclusiveMinimum: -SAFE - 1, exclusiveMaximum: SAFE + 1 },
      { type: ['integer', 'null'], minimum: -SAFE, maximum: SAFE },
    ]) {
      expect(tsText(node)).not.toMatch(/@(exclusiveM|m)(in|ax)imum/)
      expect(tsText(node)).not.toContain('9007199254740991')
      expect(pyText(node)).not.toContain('9007199254740991')
    }
  })

  it('±Number.MAX_VALUE is not printed for any number', () => {
    const node = { type: 'number', minimum: -MAX, maximum: MAX }
    expect(tsText(node)).not.toContain('e+308')
    expect(pyText(node)).not.toContain('e+308')
  })

  it('a real bound next to a natural one is printed alone', () => {
    const text = tsText({ type: 'integer', minimum: 1, maximum: SAFE, description: 'count' })
    expect(text).toContain('@minimum 1')
    expect(text).not.toContain('@maximum')
    expect(pyText({ type: 'integer', minimum: 0, maximum: SAFE })).toContain('minimum: 0')
  })

  it('safe-integer limits are real bounds for a number and for an integer one short of them', () => {
    expect(tsText({ type: 'number', minimum: -SAFE })).toContain(`@minimum ${-SAFE}`)
    expect(tsText({ type: 'integer', maximum: SAFE - 1 })).toContain(`@maximum ${SAFE - 1}`)
    expect(tsText({ minimum: -SAFE })).toContain(`@minimum ${-SAFE}`)
    expect(tsText({ type: 'integer', minimum: -2147483648 })).toContain('@minimum -2147483648')
  })

  it('the validator still enforces a bound the text leaves out', () => {
    const validate = compileJsonSchemaValidator({ type: 'integer', maximum: SAFE })
    expect(validate(SAFE)).toEqual([])
    expect(validate(2 ** 60)).toHaveLength(1)
  })
})
