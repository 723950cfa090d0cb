// A real image result (the `screenshot` tool through the pipeline) written by providerResults
// matches the shape each provider's documentation gives for a tool result with an image.
import { afterEach, describe, expect, it } from 'vitest'
import { type ProviderCall, providerResults } from '../src/index'
import {
  anthropicImageResult,
  chatImagePart,
  geminiImageResponse,
  responsesImageOutput,
} from './fixtures/documented-results'
import { startRuntime } from './fixtures/runtime'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

async function screenshot(dialect: ProviderCall['dialect']) {
  const { ctx } = await startRuntime()
  dispose = () => ctx.fiber.dispose()
  const call: ProviderCall = { callId: 'call_img', name: 'screenshot', arguments: {}, dialect }
  const result = await ctx.tools.execute({ ...call, signal: new AbortController().signal })
  expect(result.content.map((part) => part.type)).toEqual(['text', 'image'])
  return { calls: [call], results: [result] }
}

describe('image results as the providers document them', () => {
  it('anthropic: tool_result with text and a base64 image block', async () => {
    const { calls, results } = await screenshot('json-schema')
    const [message] = providerResults('anthropic', calls, results).messages
    expect(message!.content[0]).toEqual({ ...anthropicImageResult, is_error: false })
  })

  it('openai-responses: function_call_output with input_text and input_image items', async () => {
    const { calls, results } = await screenshot('openai-strict')
    expect(providerResults('openai-responses', calls, results).messages).toEqual([responsesImageOutput])
  })

  it('openai-chat: the image as an image_url data URL in the user message after the tool message', async () => {
    const { calls, results } = await screenshot('openai-strict')
    const messages = providerResults('openai-chat', calls, results).messages
    expect(messages.map((message) => message.role)).toEqual(['tool', 'user'])
    expect(messages[1]!.content).toContainEqual(chatImagePart)
  })

  it('gemini: functionResponse with inlineData parts', async () => {
    const { calls, results } = await screenshot('gemini')
    const [content] = providerResults('gemini', calls, results).messages
    expect(content!.parts[0]).toMatchObject(geminiImageResponse)
  })
})
