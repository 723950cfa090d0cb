import { afterAll, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchemaNode } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

// Where object keywords check an object, its symbol keys and non-enumerable members are not
// looked at (listing them would cost more than the rest of the check); where nothing narrower
// than "any JSON" applies, they are violations. Both validator paths must say the same.
const typed: readonly [string, JsonSchemaNode][] = [
  ['properties', { type: 'object', properties: { a: { type: 'number' } } }],
  ['a closed object', { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false }],
  ['properties without type', { properties: { a: { type: 'number' } } }],
  ['an allOf of a typed object', { allOf: [{ type: 'object', properties: { a: { type: 'number' } } }] }],
  [
    'a tagged union',
    {
      oneOf: [
        { type: 'object', properties: { a: { const: 1 } }, required: ['a'] },
        { type: 'object', properties: { a: { const: 2 } }, required: ['a'] },
      ],
    },
  ],
]

const withSymbol = () => ({ a: 1, [Symbol('k')]: 2 })
const withHidden = () => Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false })

describe('typed object sites', () => {
  afterAll(() => setFastChecksEnabled(true))

  it.each(typed)(
    'ignore symbol keys and non-enumerable members under %s, on both paths',
    (_label, schema) => {
      for (const fast of [true, false]) {
        setFastChecksEnabled(fast)
        const check = compileJsonSchemaValidator(schema)
        expect(check(withSymbol())).toEqual([])
        expect(check(withHidden())).toEqual([])
        expect(check({ a: 'x', [Symbol('k')]: 2 })).not.toEqual([])
      }
    },
  )

  it.each([
    ['any JSON', {}],
    ['an object type alone', { type: 'object' }],
    ['an undeclared member', { type: 'object', properties: { a: { type: 'number' } } }],
  ] as [string, JsonSchemaNode][])('report them under %s, on both paths', (label, schema) => {
    const place = (bad: object) => (label === 'an undeclared member' ? { a: 1, b: bad } : bad)
    for (const fast of [true, false]) {
      setFastChecksEnabled(fast)
      const check = compileJsonSchemaValidator(schema)
      expect(check(place(withSymbol()))[0]?.message).toMatch(/symbol key/)
      expect(check(place(withHidden()))[0]?.message).toMatch(/non-enumerable/)
    }
  })
})
