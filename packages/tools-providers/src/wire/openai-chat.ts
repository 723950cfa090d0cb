/**
 * OpenAI Chat Completions (https://platform.openai.com/docs/guides/function-calling and
 * https://platform.openai.com/docs/api-reference/chat/create). A tool message carries text
 * only (`ChatCompletionToolMessageParam.content` is text parts), so a result's images go in
 * one user message right after the turn's tool messages, each image labelled with its call; the
 * tool message says where its images went. A user message between two tool messages would
 * break the assistant → tool messages sequence the API requires, hence after all of them.
 */
import { contextTexts, dataUrl, modelContent, textOf } from '../internal/model-content'
import { parsedOrText } from '../internal/parse-arguments'
import { listAt, textAt } from '../internal/response-shape'
import type { WireFormat } from '../internal/wire-format'
import type {
  OpenAIChatResponse,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  ProviderCall,
  WireObject,
} from '../types'

export const openAIChat: WireFormat<'openai-chat'> = {
  defaultStrict: true,
  dialect: (strict) => (strict ? 'openai-strict' : 'json-schema'),
  tools: (specs, strict) =>
    specs.map((spec) => ({
      type: 'function',
      function: {
        name: spec.name,
        description: spec.description,
        parameters: spec.parameters as WireObject,
        strict,
      },
    })),
  calls(response, dialect) {
    const calls: ProviderCall[] = []
    const choice = listAt('openai-chat', response?.choices, 'choices')[0] as
      | OpenAIChatResponse['choices'][number]
      | undefined
    for (const call of choice?.message?.tool_calls ?? []) {
      // custom (free-text) tools are the caller's own: no definition of ours produces them
      if (call.type !== 'function' || !('function' in call)) continue
      calls.push({
        callId: textAt('openai-chat', call.id, 'tool_calls[].id'),
        name: textAt('openai-chat', call.function.name, 'tool_calls[].function.name'),
        dialect,
        ...parsedOrText(call.function.arguments),
      })
    }
    return calls
  },
  results(outcomes) {
    const messages: (OpenAIChatToolMessage | OpenAIChatUserMessage)[] = []
    const images: OpenAIChatUserMessage['content'] = []
    const contexts: string[] = []
    for (const outcome of outcomes) {
      const content = modelContent(outcome)
      const pictures = content.filter((part) => part.type === 'image')
      let text = textOf(content)
      if (pictures.length > 0) {
        const note = `[${pictures.length} image${pictures.length === 1 ? '' : 's'} in the next user message]`
        text = text === '' ? note : `${text}\n${note}`
        images.push({ type: 'text', text: `Image output of tool call ${outcome.call.callId}:` })
        for (const image of pictures) {
          images.push({ type: 'image_url', image_url: { url: dataUrl(image.mediaType, image.data) } })
        }
      }
      messages.push({ role: 'tool', tool_call_id: outcome.call.callId, content: text })
      contexts.push(...contextTexts(outcome.result))
    }
    for (const text of contexts) images.push({ type: 'text', text })
    if (images.length > 0) messages.push({ role: 'user', content: images })
    return messages
  },
}
