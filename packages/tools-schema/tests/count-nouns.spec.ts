// Violation messages put a count's noun in the right number: "at least 1 character", never
// "at least 1 characters" (and still "2 characters").
import { describe, expect, it } from 'vitest'
import { JsonBudgetError, type JsonSchema, validateJsonSchemaValue } from '../src/index'

const messageOf = (schema: JsonSchema, value: unknown) => validateJsonSchemaValue(schema, value)[0]?.message

describe('count nouns in violation messages', () => {
  it.each([
    [{ type: 'string', minLength: 1 }, '', 'expected at least 1 character, got 0'],
    [{ type: 'string', minLength: 2 }, 'a', 'expected at least 2 characters, got 1'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'expected at most 1 character, got 2'],
    [{ type: 'array', minItems: 1 }, [], 'expected at least 1 item, got 0'],
    [{ type: 'array', minItems: 2 }, [1], 'expected at least 2 items, got 1'],
    [{ type: 'array', maxItems: 1 }, [1, 2], 'expected at most 1 item, got 2'],
    [
      { type: 'array', contains: { const: 1 }, minContains: 2 },
      [1],
      'expected at least 2 items matching "contains", got 1',
    ],
    [
      { type: 'array', contains: { const: 1 }, maxContains: 1 },
      [1, 1],
      'expected at most 1 item matching "contains", got 2',
    ],
    [{ type: 'object', minProperties: 1 }, {}, 'expected at least 1 property, got 0'],
    [{ type: 'object', minProperties: 2 }, { a: 1 }, 'expected at least 2 properties, got 1'],
    [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, 'expected at most 1 property, got 2'],
  ] as [JsonSchema, unknown, string][])('%j with %j: %s', (schema, value, message) => {
    expect(messageOf(schema, value)).toBe(message)
  })

  it('JsonBudgetError names one value, container or code unit in the singular', () => {
    expect(new JsonBudgetError('$', 'maxNodes', 1).message).toContain('(more than 1 JSON value;')
    expect(new JsonBudgetError('$', 'maxDepth', 1).message).toContain('(more than 1 nested container;')
    expect(new JsonBudgetError('$', 'maxStringLength', 1).message).toContain('(more than 1 string code unit;')
    expect(new JsonBudgetError('$', 'maxNodes', 2).message).toContain('(more than 2 JSON values;')
  })
})
