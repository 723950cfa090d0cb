/**
 * Gemini (https://ai.google.dev/gemini-api/docs/function-calling). Tools are one `Tool` with
 * `functionDeclarations` in the gemini dialect. A turn's results are one user `Content` of
 * `functionResponse` parts, in call order: `response: { output }` or `{ error }` as the API
 * documents those keys, images as the response's `parts` of `inlineData` (multimodal function
 * responses). A call without an id is answered by name and order. Additional contexts follow
 * as text parts.
 */
import { contextTexts, modelContent, textOf } from '../internal/model-content'
import { parsedOrText } from '../internal/parse-arguments'
import { listAt, textAt } from '../internal/response-shape'
import type { WireFormat } from '../internal/wire-format'
import type {
  GeminiFunctionResponsePart,
  GeminiResponse,
  GeminiSchema,
  GeminiUserContent,
  ProviderCall,
} from '../types'

export const gemini: WireFormat<'gemini'> = {
  defaultStrict: false,
  dialect: () => 'gemini',
  tools: (specs) =>
    specs.length === 0
      ? []
      : [
          {
            functionDeclarations: specs.map((spec) => ({
              name: spec.name,
              description: spec.description,
              // the gemini dialect already wrote the type names upper-case: the declared type says so
              parameters: spec.parameters as unknown as GeminiSchema,
            })),
          },
        ],
  calls(response, dialect) {
    const calls: ProviderCall[] = []
    const candidates =
      response?.candidates === undefined ? [] : listAt('gemini', response.candidates, 'candidates')
    const first = candidates[0] as NonNullable<GeminiResponse['candidates']>[number] | undefined
    for (const part of first?.content?.parts ?? []) {
      const call = part?.functionCall
      if (call === undefined || call === null) continue
      const name = textAt('gemini', call.name, 'functionCall.name')
      const parsed = parsedOrText(call.args)
      if (call.id !== undefined && call.id !== '') calls.push({ callId: call.id, name, dialect, ...parsed })
      else calls.push({ callId: `gemini_call_${calls.length}`, name, dialect, ...parsed, generatedId: true })
    }
    return calls
  },
  results(outcomes) {
    if (outcomes.length === 0) return []
    const parts: GeminiUserContent['parts'] = []
    const contexts: string[] = []
    for (const outcome of outcomes) {
      const content = modelContent(outcome)
      const text = textOf(content)
      const response: GeminiFunctionResponsePart['functionResponse'] = {
        name: outcome.call.name,
        response: outcome.result.isError ? { error: text } : { output: text },
      }
      if (outcome.call.generatedId === undefined) response.id = outcome.call.callId
      const images = content.filter((part) => part.type === 'image')
      if (images.length > 0) {
        response.parts = images.map((image) => ({
          inlineData: { mimeType: image.mediaType, data: image.data },
        }))
      }
      parts.push({ functionResponse: response })
      contexts.push(...contextTexts(outcome.result))
    }
    for (const text of contexts) parts.push({ text })
    return [{ role: 'user', parts }]
  },
}
