// Real-world schemas in the older dialects their producers still emit: Amazon API Gateway
// models and Swagger 2.0 definitions (draft-04), draft-06 documents, form schemas that rely on
// draft-07 `dependencies` without a `$schema`, OpenAPI 3.0 parameter schemas given as they are,
// and Gemini function declarations as its JSON API writes them. Each must accept what the
// producer means and refuse the rest.
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema, normalizeSchema } from '../src/index'

const check = (schema: unknown) => compileJsonSchemaValidator(schema as JsonSchema)
const valid = (validator: ReturnType<typeof check>, value: unknown) => validator(value).length === 0

describe('draft-04', () => {
  it('an Amazon API Gateway model (draft-04 $schema, boolean exclusiveMinimum)', () => {
    const pet = check({
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'NewPet',
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['dog', 'cat', 'fish'] },
        price: { type: 'number', minimum: 25, maximum: 500, exclusiveMaximum: true },
      },
      required: ['type', 'price'],
    })
    expect(valid(pet, { type: 'dog', price: 25 })).toBe(true)
    expect(valid(pet, { type: 'dog', price: 499.99 })).toBe(true)
    expect(pet({ type: 'dog', price: 500 })).toEqual([
      { path: '$.price', message: expect.stringMatching(/^expected number < 500/) },
    ])
    expect(valid(pet, { type: 'bird', price: 30 })).toBe(false)
  })

  it('a Swagger 2.0 style document with `id`, `definitions` and refs into them', () => {
    const order = check({
      $schema: 'http://json-schema.org/draft-04/schema#',
      id: 'https://api.example.com/schemas/order.json',
      definitions: {
        Quantity: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        Address: {
          id: '#address',
          type: 'object',
          properties: { zip: { type: 'string', pattern: '^\\d{5}$' } },
        },
      },
      type: 'object',
      properties: {
        quantity: { $ref: '#/definitions/Quantity' },
        shipTo: { $ref: '#address' },
      },
      required: ['quantity'],
    })
    expect(valid(order, { quantity: 1, shipTo: { zip: '12345' } })).toBe(true)
    expect(valid(order, { quantity: 0 })).toBe(false)
    expect(valid(order, { quantity: 2, shipTo: { zip: '1234' } })).toBe(false)
  })
})

describe('draft-06', () => {
  it('a draft-06 document: $id, const, contains, numeric exclusiveMinimum, examples', () => {
    const release = check({
      $schema: 'http://json-schema.org/draft-06/schema#',
      $id: 'https://example.com/release.schema.json',
      type: 'object',
      properties: {
        kind: { const: 'release' },
        version: { type: 'string', examples: ['1.2.3'] },
        assets: { type: 'array', contains: { type: 'string', pattern: '\\.tgz$' } },
        size: { type: 'number', exclusiveMinimum: 0 },
      },
      required: ['kind', 'version'],
    })
    expect(
      valid(release, { kind: 'release', version: '1.0.0', assets: ['a.tgz', 'notes.md'], size: 1 }),
    ).toBe(true)
    expect(valid(release, { kind: 'draft', version: '1.0.0' })).toBe(false)
    expect(valid(release, { kind: 'release', version: '1', assets: ['notes.md'] })).toBe(false)
    expect(valid(release, { kind: 'release', version: '1', size: 0 })).toBe(false)
  })
})

describe('draft-07 dependencies without $schema', () => {
  // The react-jsonschema-form "dependencies" examples, which declare no `$schema`.
  it('the array form: a credit card needs a billing address', () => {
    const form = check({
      title: 'A registration form',
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        credit_card: { type: 'number' },
        billing_address: { type: 'string' },
      },
      dependencies: { credit_card: ['billing_address'] },
    })
    expect(valid(form, { name: 'a' })).toBe(true)
    expect(valid(form, { name: 'a', credit_card: 1, billing_address: 'x' })).toBe(true)
    expect(form({ name: 'a', credit_card: 1 })).toEqual([
      { path: '$', message: 'property "credit_card" requires property "billing_address"' },
    ])
  })

  it('the schema form: a credit card makes the billing address required', () => {
    const form = check({
      type: 'object',
      properties: { name: { type: 'string' }, credit_card: { type: 'number' } },
      required: ['name'],
      dependencies: {
        credit_card: { properties: { billing_address: { type: 'string' } }, required: ['billing_address'] },
      },
    })
    expect(valid(form, { name: 'a', credit_card: 1, billing_address: 'x' })).toBe(true)
    expect(valid(form, { name: 'a', credit_card: 1 })).toBe(false)
    expect(valid(form, { name: 'a', credit_card: 1, billing_address: 2 })).toBe(false)
  })
})

describe('OpenAPI 3.0 schema objects given as they are', () => {
  // A springdoc / FastAPI-style request body: `nullable` fields and a boolean exclusiveMinimum.
  const body = {
    type: 'object',
    properties: {
      title: { type: 'string', maxLength: 100 },
      dueDate: { type: 'string', format: 'date', nullable: true },
      priority: { type: 'integer', enum: [1, 2, 3], nullable: true },
      estimate: { type: 'number', minimum: 0, exclusiveMinimum: true, nullable: true },
    },
    required: ['title'],
  }

  it('accepts null for a nullable field, and reads the boolean bound, with or without normalizeSchema', () => {
    for (const validator of [
      check(body),
      check(normalizeSchema(body as unknown as JsonSchema, { from: 'openapi-3.0' })),
    ]) {
      expect(valid(validator, { title: 't', dueDate: null, priority: null, estimate: null })).toBe(true)
      expect(valid(validator, { title: 't', dueDate: '2026-12-03', priority: 2, estimate: 0.5 })).toBe(true)
      expect(valid(validator, { title: 't', priority: 4 })).toBe(false)
      expect(valid(validator, { title: 't', estimate: 0 })).toBe(false)
      expect(valid(validator, { title: null })).toBe(false)
    }
  })
})

describe('Gemini function declarations as its JSON API writes them', () => {
  it('upper-case types and int64 counts as strings, through normalizeSchema', () => {
    const declaration = {
      name: 'schedule_meeting',
      description: 'Schedules a meeting with specified attendees at a given time and date.',
      parameters: {
        type: 'OBJECT',
        properties: {
          attendees: {
            type: 'ARRAY',
            items: { type: 'STRING' },
            minItems: '1',
            description: 'List of people attending the meeting.',
          },
          date: { type: 'STRING', description: 'Date of the meeting (e.g., 2024-07-29)' },
          topic: { type: 'STRING', maxLength: '80', nullable: true },
          priority: { type: 'STRING', format: 'enum', enum: ['low', 'high'] },
        },
        required: ['attendees', 'date'],
      },
    }
    const meeting = check(
      normalizeSchema(declaration.parameters as unknown as JsonSchema, { from: 'gemini' }),
    )
    expect(valid(meeting, { attendees: ['Bob'], date: '2024-07-29', topic: null, priority: 'low' })).toBe(
      true,
    )
    expect(valid(meeting, { attendees: [], date: '2024-07-29' })).toBe(false)
    expect(valid(meeting, { attendees: ['Bob'], date: '2024-07-29', priority: 'urgent' })).toBe(false)
    expect(valid(meeting, { attendees: ['Bob'], date: '2024-07-29', topic: 'x'.repeat(81) })).toBe(false)
  })
})
