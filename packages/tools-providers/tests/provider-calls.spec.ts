// The documentation's responses (tests/fixtures) read into calls and run through the real pipeline.
import { afterEach, describe, expect, it } from 'vitest'
import { type ProviderCall, providerCalls } from '../src/index'
import { anthropicParallel, anthropicStreamedText, anthropicToolUseWithText } from './fixtures/anthropic'
import { geminiParallelWithText, geminiSingle } from './fixtures/gemini'
import { chatMalformed, chatParallelWithText, chatToolCall } from './fixtures/openai-chat'
import { responsesMalformed, responsesParallelWithText } from './fixtures/openai-responses'
import { startRuntime } from './fixtures/runtime'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

async function run(calls: readonly ProviderCall[]) {
  const started = await startRuntime()
  dispose = () => started.ctx.fiber.dispose()
  const signal = new AbortController().signal
  const results = await started.ctx.tools.executeBatch(calls.map((call) => ({ ...call, signal })))
  return { ...started, results }
}

const brief = (calls: readonly ProviderCall[]) =>
  calls.map(({ callId, name, arguments: args, dialect }) => ({ callId, name, arguments: args, dialect }))

describe('providerCalls', () => {
  it('openai-chat: the documented call, arguments parsed from their JSON text, in the strict dialect', () => {
    expect(brief(providerCalls('openai-chat', chatToolCall))).toEqual([
      {
        callId: 'call_abc123',
        name: 'get_current_weather',
        arguments: { location: 'Boston, MA' },
        dialect: 'openai-strict',
      },
    ])
    expect(providerCalls('openai-chat', chatToolCall, { strict: false })[0]!.dialect).toBe('json-schema')
  })

  it('parallel calls beside text keep the model order and all run', async () => {
    const calls = providerCalls('openai-chat', chatParallelWithText)
    expect(calls.map((call) => call.callId)).toEqual(['call_12345xyz', 'call_67890abc', 'call_99999def'])
    const { results, runs } = await run(calls)
    expect(results.map((result) => result.isError)).toEqual([false, false, false])
    expect(runs.get('get_weather')).toBe(2)
    expect(runs.get('send_email')).toBe(1)
  })

  it('openai-responses: the function_call items, skipping reasoning and message items', () => {
    const calls = providerCalls('openai-responses', responsesParallelWithText)
    expect(brief(calls)).toEqual([
      {
        callId: 'call_12345xyz',
        name: 'get_weather',
        arguments: { location: 'Paris, France' },
        dialect: 'openai-strict',
      },
      {
        callId: 'call_67890abc',
        name: 'get_weather',
        arguments: { location: 'Bogotá, Colombia' },
        dialect: 'openai-strict',
      },
      {
        callId: 'call_99999def',
        name: 'send_email',
        arguments: { to: 'bob@email.com', body: 'Hi bob' },
        dialect: 'openai-strict',
      },
    ])
  })

  it('anthropic: tool_use blocks after text, input already parsed, plain JSON Schema dialect', () => {
    expect(brief(providerCalls('anthropic', anthropicToolUseWithText))).toEqual([
      {
        callId: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: { location: 'San Francisco, CA', unit: 'celsius' },
        dialect: 'json-schema',
      },
    ])
    expect(providerCalls('anthropic', anthropicParallel).map((call) => call.name)).toEqual([
      'get_weather',
      'get_time',
    ])
  })

  it('gemini: functionCall parts; a call without an id gets one from its position, marked generated', () => {
    const [single] = providerCalls('gemini', geminiSingle)
    expect(single).toEqual({
      callId: 'gemini_call_0',
      name: 'set_light_values',
      arguments: { brightness: 25, color_temp: 'warm' },
      dialect: 'gemini',
      generatedId: true,
    })
    const calls = providerCalls('gemini', geminiParallelWithText)
    expect(calls.map((call) => [call.callId, call.name, call.generatedId])).toEqual([
      ['fc-1', 'power_disco_ball', undefined],
      ['fc-2', 'start_music', undefined],
      ['fc-3', 'dim_lights', undefined],
    ])
  })

  it('strict-mode null for an optional property reaches the body as absent', async () => {
    const calls = providerCalls('openai-chat', {
      choices: [
        {
          message: {
            tool_calls: [
              {
                id: 'call_null',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' },
              },
            ],
          },
        },
      ],
    })
    const { results } = await run(calls)
    expect(results[0]).toMatchObject({ isError: false, value: 'get_weather {"location":"Oslo"}' })
  })

  describe('malformed argument text is an INVALID_ARGS result, not a throw', () => {
    it('openai-chat: the bad call fails alone, no body runs for it, its siblings run; custom calls are skipped', async () => {
      const calls = providerCalls('openai-chat', chatMalformed)
      expect(calls.map((call) => call.callId)).toEqual(['call_bad', 'call_good'])
      expect(calls[0]).toMatchObject({ arguments: '{"location": "Paris, Fra', malformed: expect.any(String) })
      const { results, runs } = await run(calls)
      expect(results[0]).toMatchObject({ isError: true, error: { info: { code: 'INVALID_ARGS' } } })
      expect(results[1]!.isError).toBe(false)
      expect(runs.get('get_weather')).toBe(1)
    })

    it('openai-responses and anthropic (text from a cut stream) the same way', async () => {
      const calls = [
        ...providerCalls('openai-responses', responsesMalformed),
        ...providerCalls('anthropic', anthropicStreamedText),
      ]
      expect(calls.map((call) => call.malformed === undefined)).toEqual([false, false])
      const { results, runs } = await run(calls)
      expect(results.map((result) => result.isError && result.error.info?.code)).toEqual([
        'INVALID_ARGS',
        'INVALID_ARGS',
      ])
      expect(runs.get('get_weather')).toBeUndefined()
    })

    it('empty argument text (some compatible servers send it for no parameters) is {}', () => {
      const [call] = providerCalls('openai-responses', {
        output: [{ type: 'function_call', call_id: 'c', name: 'screenshot', arguments: '' }],
      })
      expect(call).toMatchObject({ arguments: {} })
      expect(call!.malformed).toBeUndefined()
    })
  })

  it('a response of another shape is a TypeError naming what is missing, not a crash inside', () => {
    expect(() => providerCalls('openai-chat', {} as never)).toThrow(
      "providerCalls('openai-chat'): the response has no `choices` array — is it a openai-chat response?",
    )
    // an Anthropic message handed to the Responses reader
    expect(() => providerCalls('openai-responses', anthropicParallel as never)).toThrow(/no `output` array/)
    expect(() => providerCalls('anthropic', chatToolCall as never)).toThrow(/no `content` array/)
    expect(() => providerCalls('gemini', { candidates: 'x' } as never)).toThrow(/no `candidates` array/)
    expect(() => providerCalls('anthropic', null as never)).toThrow(TypeError)
    expect(() =>
      providerCalls('openai-responses', {
        output: [{ type: 'function_call', call_id: 7, name: 'x', arguments: '{}' }],
      } as never),
    ).toThrow("providerCalls('openai-responses'): `output[].call_id` must be a string (got number)")
  })

  it('argument objects (some compatible servers send them) pass as they are', () => {
    const [call] = providerCalls('openai-chat', {
      choices: [
        {
          message: {
            tool_calls: [
              { id: 'o', type: 'function', function: { name: 'get_time', arguments: { timezone: 'UTC' } } },
            ],
          },
        },
      ],
    } as never)
    expect(call).toMatchObject({ arguments: { timezone: 'UTC' } })
  })

  it('a response without calls gives none; an unknown provider is a TypeError', () => {
    expect(providerCalls('openai-chat', { choices: [{ message: { tool_calls: null } }] })).toEqual([])
    expect(providerCalls('openai-chat', { choices: [] })).toEqual([])
    expect(providerCalls('gemini', {})).toEqual([])
    expect(() => providerCalls('cohere' as never, { choices: [] } as never)).toThrow(TypeError)
  })
})
