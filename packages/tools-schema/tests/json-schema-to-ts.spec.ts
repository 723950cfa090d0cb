import { describe, expect, it } from 'vitest'
import { jsonSchemaToTs } from '../src/index'
import { codegenSchemas } from './fixtures/codegen-schemas'

describe('jsonSchemaToTs', () => {
  it('matches the file snapshot for a varied schema set', async () => {
    const text = Object.entries(codegenSchemas)
      .map(([name, schema]) => `type ${name[0]!.toUpperCase()}${name.slice(1)} = ${jsonSchemaToTs(schema)}\n`)
      .join('\n')
    await expect(text).toMatchFileSnapshot('./__snapshots__/json-schema-to-ts.ts.txt')
  })

  it('is deterministic: same input, same bytes', () => {
    for (const schema of Object.values(codegenSchemas)) {
      expect(jsonSchemaToTs(structuredClone(schema))).toBe(jsonSchemaToTs(schema))
    }
  })

  it('quotes exotic property names', () => {
    expect(jsonSchemaToTs({ type: 'object', properties: { 'my-key': { type: 'string' } } })).toBe(
      '{ "my-key"?: string }',
    )
  })

  it('escapes */ inside descriptions', () => {
    const text = jsonSchemaToTs({
      type: 'object',
      properties: { a: { type: 'string', description: 'x */ y' } },
    })
    expect(text).toContain('/** x *\\/ y */')
  })

  it('parenthesises unions inside arrays', () => {
    expect(jsonSchemaToTs({ type: 'array', items: { enum: ['a', 'b'] } })).toBe('("a" | "b")[]')
  })

  it('never throws: unsupported, hostile and cyclic inputs degrade to unknown', () => {
    const hostile = {
      get type() {
        throw new Error('boom')
      },
    }
    const cyclic: Record<string, unknown> = { type: 'array' }
    cyclic.items = cyclic
    expect(jsonSchemaToTs(hostile)).toBe('JsonValue')
    expect(jsonSchemaToTs(cyclic)).toBe('unknown[]')
    expect(jsonSchemaToTs({ anyOf: [] })).toBe('unknown')
    expect(jsonSchemaToTs(null)).toBe('unknown')
    expect(jsonSchemaToTs({ type: 42 })).toBe('unknown')
    expect(
      jsonSchemaToTs(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x')
            },
          },
        ),
      ),
    ).toBe('JsonValue')
  })
})
