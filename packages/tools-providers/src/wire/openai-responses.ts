/**
 * OpenAI Responses (https://platform.openai.com/docs/guides/function-calling?api-mode=responses
 * and https://platform.openai.com/docs/api-reference/responses/create). Each result is a
 * `function_call_output` item: a string, or — when it has images — a list of `input_text` and
 * `input_image` parts, which the API accepts as a function's output. Additional contexts
 * follow as one user message.
 */
import { contextTexts, dataUrl, modelContent, textOf } from '../internal/model-content'
import { parsedOrText } from '../internal/parse-arguments'
import { listAt, textAt } from '../internal/response-shape'
import type { WireFormat } from '../internal/wire-format'
import type {
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesResponse,
  OpenAIResponsesUserMessage,
  ProviderCall,
  WireObject,
} from '../types'

type OutputParts = Exclude<OpenAIResponsesFunctionCallOutput['output'], string>

export const openAIResponses: WireFormat<'openai-responses'> = {
  defaultStrict: true,
  dialect: (strict) => (strict ? 'openai-strict' : 'json-schema'),
  tools: (specs, strict) =>
    specs.map((spec) => ({
      type: 'function',
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters as WireObject,
      strict,
    })),
  calls(response, dialect) {
    const calls: ProviderCall[] = []
    for (const entry of listAt('openai-responses', response?.output, 'output')) {
      const item = entry as OpenAIResponsesResponse['output'][number]
      if (item?.type !== 'function_call' || !('call_id' in item)) continue
      calls.push({
        callId: textAt('openai-responses', item.call_id, 'output[].call_id'),
        name: textAt('openai-responses', item.name, 'output[].name'),
        dialect,
        ...parsedOrText(item.arguments),
      })
    }
    return calls
  },
  results(outcomes) {
    const messages: (OpenAIResponsesFunctionCallOutput | OpenAIResponsesUserMessage)[] = []
    const contexts: string[] = []
    for (const outcome of outcomes) {
      const content = modelContent(outcome)
      let output: OpenAIResponsesFunctionCallOutput['output'] = textOf(content)
      if (content.some((part) => part.type === 'image')) {
        output = content.map((part): OutputParts[number] =>
          part.type === 'text'
            ? { type: 'input_text', text: part.text }
            : { type: 'input_image', image_url: dataUrl(part.mediaType, part.data) },
        )
      }
      messages.push({ type: 'function_call_output', call_id: outcome.call.callId, output })
      contexts.push(...contextTexts(outcome.result))
    }
    if (contexts.length > 0) messages.push({ type: 'message', role: 'user', content: contexts.join('\n\n') })
    return messages
  },
}
