import { createScope, toProviderSchema } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { providerTools } from '../src/index'
import { startRuntime } from './fixtures/runtime'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

async function runtime() {
  const started = await startRuntime()
  dispose = () => started.ctx.fiber.dispose()
  return started
}

describe('providerTools', () => {
  it('openai-chat: function wrappers in the openai-strict dialect, strict by default', async () => {
    const { ctx } = await runtime()
    const tools = providerTools(ctx, 'openai-chat')
    const weather = tools.find((tool) => tool.function.name === 'get_weather')!
    expect(weather).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: "The documentation's get_weather.",
        parameters: toProviderSchema(
          ctx.tools.schemas().find((t) => t.name === 'get_weather')!.parameters,
          'openai-strict',
        ).schema,
        strict: true,
      },
    })
    // strict mode: every property required, the optional one nullable, no extra properties
    expect(weather.function.parameters).toMatchObject({
      required: ['location', 'unit'],
      additionalProperties: false,
    })
  })

  it('strict: false sends plain JSON Schema and strict: false', async () => {
    const { ctx } = await runtime()
    const weather = providerTools(ctx, 'openai-chat', { strict: false }).find(
      (tool) => tool.function.name === 'get_weather',
    )!
    expect(weather.function.strict).toBe(false)
    expect(weather.function.parameters).toMatchObject({ required: ['location'] })
  })

  it('openai-responses: flat function tools', async () => {
    const { ctx } = await runtime()
    const tool = providerTools(ctx, 'openai-responses').find((entry) => entry.name === 'get_time')!
    expect(tool).toMatchObject({ type: 'function', name: 'get_time', strict: true })
    expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false })
  })

  it('anthropic: name, description and input_schema in plain JSON Schema; strict opt-in', async () => {
    const { ctx } = await runtime()
    const tool = providerTools(ctx, 'anthropic').find((entry) => entry.name === 'get_weather')!
    expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name'])
    expect(tool.input_schema).toMatchObject({ type: 'object', required: ['location'] })
    const strict = providerTools(ctx, 'anthropic', { strict: true }).find(
      (entry) => entry.name === 'get_weather',
    )!
    expect(strict.strict).toBe(true)
    expect(strict.input_schema).toMatchObject({ additionalProperties: false, required: ['location', 'unit'] })
  })

  it('gemini: one Tool of functionDeclarations in the gemini dialect (upper-case types)', async () => {
    const { ctx } = await runtime()
    const tools = providerTools(ctx, 'gemini')
    expect(tools).toHaveLength(1)
    const declaration = tools[0]!.functionDeclarations.find((entry) => entry.name === 'dim_lights')!
    expect(declaration.parameters).toMatchObject({
      type: 'OBJECT',
      properties: { brightness: { type: 'NUMBER' } },
    })
  })

  it("lists the agent's view: a scope's restriction hides tools", async () => {
    const { ctx } = await runtime()
    const scope = createScope(ctx, 'agent-a')
    scope.ctx.tools.restrict({ allow: ['get_time'] })
    const names = providerTools(ctx, 'openai-responses', { agent: scope.key }).map((tool) => tool.name)
    expect(names).toEqual(['get_time'])
    expect(providerTools(ctx, 'openai-responses').length).toBeGreaterThan(1)
  })

  it('an unknown provider or a non-boolean strict is a TypeError naming the choices', async () => {
    const { ctx } = await runtime()
    expect(() => providerTools(ctx, 'mistral' as never)).toThrow(
      /unknown provider `mistral` \(expected openai-chat, openai-responses, anthropic, gemini\)/,
    )
    expect(() => providerTools(ctx, 'gemini', { strict: 'yes' as never })).toThrow(
      /`strict` must be a boolean/,
    )
  })
})
