// A raw definition's schemas are read once, at registration, into the form every consumer
// shares (tools-schema `normalizeSchema(schema, { from: 'json-schema' })`): a draft-04 document
// or an OpenAPI 3.0 `nullable` field means the same to validation, to the SDK text and to every
// provider dialect.
import { describe, expect, it } from 'vitest'
import { checkGeminiSchema, checkOpenAiStrictSchema, type ObjectJsonSchema } from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

// An API Gateway / Swagger 2.0 style model: draft-04 `id`, boolean exclusiveMinimum, and an
// OpenAPI 3.0 `nullable` field beside them.
const PET = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  id: 'https://example.com/models/pet.json',
  title: 'Pet',
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number', minimum: 0, exclusiveMinimum: true },
    tag: { type: 'string', nullable: true },
  },
  required: ['name'],
}

async function petRuntime() {
  const ctx = await createRuntime()
  ctx.tools.register({
    name: 'add_pet',
    description: 'Adds a pet.',
    parameters: PET as unknown as ObjectJsonSchema,
    output: { schema: {}, render: () => [{ type: 'text', text: 'ok' }] },
    execute: () => null,
  })
  return ctx
}

describe('legacy schema spellings at registration', () => {
  it('a draft-04 document with an OpenAPI nullable field registers in its standard form', async () => {
    const ctx = await petRuntime()
    expect(ctx.tools.assemble().tools[0]!.parameters).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/models/pet.json',
      title: 'Pet',
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number', exclusiveMinimum: 0 },
        tag: { type: ['string', 'null'] },
      },
      required: ['name'],
    })
  })

  it('validation reads them as their source meant', async () => {
    const ctx = await petRuntime()
    const outcome = async (args: unknown) => {
      const result = await ctx.tools.execute(call('add_pet', args))
      return result.isError ? result.error.info?.code : 'ok'
    }
    expect(await outcome({ name: 'Rex', price: 1, tag: null })).toBe('ok')
    expect(await outcome({ name: 'Rex', price: 0 })).toBe('INVALID_ARGS')
    expect(await outcome({ name: 'Rex', tag: 1 })).toBe('INVALID_ARGS')
  })

  it('every provider dialect gets a schema its checker accepts, with the bound and the null kept', async () => {
    const ctx = await petRuntime()
    const strict = ctx.tools.assemble({ dialect: 'openai-strict' }).tools[0]!.parameters
    expect(checkOpenAiStrictSchema(strict)).toEqual([])
    expect(JSON.stringify(strict)).not.toContain('"exclusiveMinimum":true')
    const gemini = ctx.tools.assemble({ dialect: 'gemini' }).tools[0]!.parameters
    expect(checkGeminiSchema(gemini)).toEqual([])
    expect((gemini.properties as Record<string, { nullable?: boolean }>).tag!.nullable).toBe(true)
  })
})
