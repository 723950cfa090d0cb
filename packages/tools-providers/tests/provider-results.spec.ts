// Results of real pipeline runs written in each provider's documented shape: errors, images,
// additional contexts, malformed arguments and calls that wait for a person's approval.
import type { ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { type Provider, type ProviderCall, providerResults } from '../src/index'
import { PIXEL_PNG, startRuntime } from './fixtures/runtime'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

/** One of each: a success, a tool failure (unknown tool), an image result, malformed text, an approval. */
function turn(dialect: ProviderCall['dialect']): ProviderCall[] {
  return [
    { callId: 'c1', name: 'get_time', arguments: { timezone: 'UTC' }, dialect },
    { callId: 'c2', name: 'get_wether', arguments: { location: 'Paris' }, dialect },
    { callId: 'c3', name: 'screenshot', arguments: {}, dialect },
    {
      callId: 'c4',
      name: 'get_weather',
      arguments: '{"location": "Par',
      dialect,
      malformed: 'Unterminated string',
    },
    { callId: 'c5', name: 'deploy', arguments: { target: 'prod' }, dialect },
  ]
}

async function execute(calls: readonly ProviderCall[]) {
  const started = await startRuntime()
  dispose = () => started.ctx.fiber.dispose()
  const signal = new AbortController().signal
  const results = await started.ctx.tools.executeBatch(calls.map((call) => ({ ...call, signal })))
  return { ...started, results: [...results] }
}

async function resultsOf(provider: Provider, dialect: ProviderCall['dialect']) {
  const calls = turn(dialect)
  const { results, runs, ctx } = await execute(calls)
  return { calls, results, runs, ctx, out: providerResults(provider, calls, results) }
}

const PNG_URL = `data:image/png;base64,${PIXEL_PNG}`
const MALFORMED = 'Error: invalid arguments: the argument text is not valid JSON (Unterminated string)'

describe('providerResults', () => {
  it('openai-chat: one tool message per answered call, then one user message with the images', async () => {
    const { out } = await resultsOf('openai-chat', 'openai-strict')
    expect(out.messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'get_time {"timezone":"UTC"}' },
      { role: 'tool', tool_call_id: 'c2', content: expect.stringMatching(/^Error: .*get_wether/) },
      { role: 'tool', tool_call_id: 'c3', content: 'one pixel\n[1 image in the next user message]' },
      { role: 'tool', tool_call_id: 'c4', content: MALFORMED },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image output of tool call c3:' },
          { type: 'image_url', image_url: { url: PNG_URL } },
        ],
      },
    ])
  })

  it('openai-responses: function_call_output items; an image result is a list of input parts', async () => {
    const { out } = await resultsOf('openai-responses', 'openai-strict')
    expect(out.messages).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: 'get_time {"timezone":"UTC"}' },
      { type: 'function_call_output', call_id: 'c2', output: expect.stringMatching(/^Error: /) },
      {
        type: 'function_call_output',
        call_id: 'c3',
        output: [
          { type: 'input_text', text: 'one pixel' },
          { type: 'input_image', image_url: PNG_URL },
        ],
      },
      { type: 'function_call_output', call_id: 'c4', output: MALFORMED },
    ])
  })

  it('anthropic: one user message of tool_result blocks with is_error and image blocks', async () => {
    const { out } = await resultsOf('anthropic', 'json-schema')
    expect(out.messages).toHaveLength(1)
    expect(out.messages[0]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'c1',
          is_error: false,
          content: [{ type: 'text', text: 'get_time {"timezone":"UTC"}' }],
        },
        {
          type: 'tool_result',
          tool_use_id: 'c2',
          is_error: true,
          content: [{ type: 'text', text: expect.stringMatching(/^Error: /) }],
        },
        {
          type: 'tool_result',
          tool_use_id: 'c3',
          is_error: false,
          content: [
            { type: 'text', text: 'one pixel' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
          ],
        },
        {
          type: 'tool_result',
          tool_use_id: 'c4',
          is_error: true,
          content: [{ type: 'text', text: MALFORMED }],
        },
      ],
    })
  })

  it('gemini: one user content of functionResponse parts, output or error, images as inlineData parts', async () => {
    const { out } = await resultsOf('gemini', 'gemini')
    expect(out.messages).toEqual([
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'c1',
              name: 'get_time',
              response: { output: 'get_time {"timezone":"UTC"}' },
            },
          },
          {
            functionResponse: {
              id: 'c2',
              name: 'get_wether',
              response: { error: expect.stringMatching(/^Error: /) },
            },
          },
          {
            functionResponse: {
              id: 'c3',
              name: 'screenshot',
              response: { output: 'one pixel' },
              parts: [{ inlineData: { mimeType: 'image/png', data: PIXEL_PNG } }],
            },
          },
          { functionResponse: { id: 'c4', name: 'get_weather', response: { error: MALFORMED } } },
        ],
      },
    ])
  })

  it('gemini: a call that came without an id is answered without one', () => {
    const call: ProviderCall = {
      callId: 'gemini_call_0',
      name: 'x',
      arguments: {},
      dialect: 'gemini',
      generatedId: true,
    }
    const result: ToolExecutionResult = {
      isError: false,
      value: 'ok',
      content: [{ type: 'text', text: 'ok' }],
    }
    const [content] = providerResults('gemini', [call], [result]).messages
    expect(content!.parts[0]).toEqual({ functionResponse: { name: 'x', response: { output: 'ok' } } })
  })

  describe('APPROVAL_PENDING results are held back and reported', () => {
    for (const [provider, dialect] of [
      ['openai-chat', 'openai-strict'],
      ['openai-responses', 'openai-strict'],
      ['anthropic', 'json-schema'],
      ['gemini', 'gemini'],
    ] as const) {
      it(`${provider}: nothing is sent for the pending call; after resume, one full answer`, async () => {
        const { out, calls, results, runs, ctx } = await resultsOf(provider, dialect)
        expect(out.pending).toHaveLength(1)
        const [pending] = out.pending
        expect(pending!.call.callId).toBe('c5')
        expect(pending!.result.error.info?.code).toBe('APPROVAL_PENDING')
        expect(JSON.stringify(out.messages)).not.toContain('c5')
        expect(runs.get('deploy')).toBeUndefined()
        // a person approves; the loop resumes and answers the whole turn at once
        await ctx.approvals.decide(pending!.ticket, { approve: true, by: 'ops' })
        const resumed = await ctx.tools.resume(pending!.ticket, { signal: new AbortController().signal })
        expect(resumed.isError).toBe(false)
        results[4] = resumed
        const final = providerResults(provider, calls, results)
        expect(final.pending).toEqual([])
        expect(JSON.stringify(final.messages)).toContain('deploy {\\"target\\":\\"prod\\"}')
        expect(runs.get('deploy')).toBe(1)
      })
    }
  })

  describe('additional contexts follow the results', () => {
    const call: ProviderCall = { callId: 'k', name: 'x', arguments: {}, dialect: 'json-schema' }
    const result: ToolExecutionResult = {
      isError: false,
      value: 'ok',
      content: [{ type: 'text', text: 'ok' }],
      additionalContexts: [{ source: 'lint', text: '2 warnings' }],
    }
    const framed = '<context source="lint">\n2 warnings\n</context>'
    it('as a user message (Chat, Responses) or a trailing text block/part (Anthropic, Gemini)', () => {
      expect(providerResults('openai-chat', [call], [result]).messages.at(-1)).toEqual({
        role: 'user',
        content: [{ type: 'text', text: framed }],
      })
      expect(providerResults('openai-responses', [call], [result]).messages.at(-1)).toEqual({
        type: 'message',
        role: 'user',
        content: framed,
      })
      expect(providerResults('anthropic', [call], [result]).messages[0]!.content.at(-1)).toEqual({
        type: 'text',
        text: framed,
      })
      expect(providerResults('gemini', [call], [result]).messages[0]!.parts.at(-1)).toEqual({ text: framed })
    })
  })

  it('anthropic: an image type Anthropic does not take becomes a text block', () => {
    const call: ProviderCall = { callId: 'i', name: 'x', arguments: {}, dialect: 'json-schema' }
    const result: ToolExecutionResult = {
      isError: false,
      value: 'ok',
      content: [{ type: 'image', mediaType: 'image/bmp', data: 'Qk0=' }],
    }
    const block = providerResults('anthropic', [call], [result]).messages[0]!.content[0]
    expect(block).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('image/bmp') }] })
  })

  it('no calls, no messages; lists of different lengths are a TypeError', () => {
    for (const provider of ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const) {
      expect(providerResults(provider, [], [])).toEqual({ messages: [], pending: [] })
    }
    const call: ProviderCall = { callId: 'a', name: 'x', arguments: {}, dialect: 'json-schema' }
    expect(() => providerResults('anthropic', [call], [])).toThrow(/1 calls but 0 results/)
  })
})
