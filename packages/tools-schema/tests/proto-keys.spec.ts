// `__proto__` is an ordinary key in JSON: a model may put it in arguments, and a third party in a
// tool's schema (a property, or a keyword). Every copy the dialects make keeps it an own data
// property — an assignment would set the copy's prototype instead, and a later key the frozen
// prototype also holds would throw "read only" out of the pipeline.
import { describe, expect, it } from 'vitest'
import { type JsonValue, type ProviderDialect, providerArgsToCanonical, toProviderSchema } from '../src/index'

const DIALECTS: readonly ProviderDialect[] = ['json-schema', 'openai-strict', 'gemini']

const SCHEMA = {
  type: 'object',
  properties: {
    x: { type: 'string' },
    nested: { type: 'object', properties: { y: { type: 'string' } } },
  },
} as const

/** A value as JSON.parse makes it: `__proto__` an own key, frozen like the pipeline's snapshots. */
const parsed = (text: string) => {
  const freeze = (value: unknown): unknown => {
    if (value !== null && typeof value === 'object') {
      for (const member of Object.values(value)) freeze(member)
      Object.freeze(value)
    }
    return value
  }
  return freeze(JSON.parse(text)) as JsonValue
}

const ownProto = (value: unknown) => Object.getOwnPropertyDescriptor(value, '__proto__')?.value

describe('a `__proto__` key', () => {
  it.each(DIALECTS)('in the arguments stays an own key through %s normalization', (dialect) => {
    const args = parsed('{"__proto__": {"x": 1}, "x": "y", "nested": {"__proto__": {"y": 2}, "y": "z"}}')
    const canonical = providerArgsToCanonical(args, SCHEMA, dialect) as Record<string, unknown>
    expect(Object.getPrototypeOf(canonical)).toBe(Object.prototype)
    expect(canonical.x).toBe('y')
    expect(ownProto(canonical)).toEqual({ x: 1 })
    const nested = canonical.nested as Record<string, unknown>
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype)
    expect([nested.y, ownProto(nested)]).toEqual(['z', { y: 2 }])
  })

  it.each(DIALECTS)(
    'as a property or a keyword of a tool schema stays an own key in the %s schema',
    (dialect) => {
      const schema = parsed(
        '{"type": "object", "properties": {"__proto__": {"type": "string"}, "type": {"type": "string"}}, "__proto__": {"type": "number"}}',
      )
      const converted = toProviderSchema(schema, dialect).schema as Record<string, unknown>
      expect(Object.getPrototypeOf(converted)).toBe(Object.prototype)
      expect(String(converted.type).toLowerCase()).toBe('object')
      const properties = converted.properties as Record<string, unknown>
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype)
      expect(Object.keys(properties)).toContain('__proto__')
    },
  )
})
