/**
 * Anthropic Messages (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
 * A turn's results are one user message: a `tool_result` block per call, in call order and
 * before anything else, with `is_error` and text and image blocks as content; additional
 * contexts follow as text blocks. Anthropic takes JPEG, PNG, GIF and WebP images: another
 * media type becomes a text block saying it was left out.
 */
import { contextTexts, modelContent } from '../internal/model-content'
import { parsedOrText } from '../internal/parse-arguments'
import { listAt, textAt } from '../internal/response-shape'
import type { WireFormat } from '../internal/wire-format'
import type {
  AnthropicImageMediaType,
  AnthropicResponse,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicUserMessage,
  ProviderCall,
} from '../types'

const MEDIA_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

export const anthropic: WireFormat<'anthropic'> = {
  defaultStrict: false,
  dialect: (strict) => (strict ? 'openai-strict' : 'json-schema'),
  tools: (specs, strict) =>
    specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      input_schema: spec.parameters as AnthropicTool['input_schema'],
      ...(strict ? { strict: true as const } : {}),
    })),
  calls(response, dialect) {
    const calls: ProviderCall[] = []
    for (const entry of listAt('anthropic', response?.content, 'content')) {
      const block = entry as AnthropicResponse['content'][number]
      if (block?.type !== 'tool_use' || !('input' in block)) continue
      calls.push({
        callId: textAt('anthropic', block.id, 'content[].id'),
        name: textAt('anthropic', block.name, 'content[].name'),
        dialect,
        ...parsedOrText(block.input),
      })
    }
    return calls
  },
  results(outcomes) {
    if (outcomes.length === 0) return []
    const content: AnthropicUserMessage['content'] = []
    const contexts: string[] = []
    for (const outcome of outcomes) {
      const blocks: AnthropicToolResultBlock['content'] = []
      for (const part of modelContent(outcome)) {
        if (part.type === 'text') blocks.push({ type: 'text', text: part.text })
        else if (MEDIA_TYPES.has(part.mediaType)) {
          const media_type = part.mediaType as AnthropicImageMediaType
          blocks.push({ type: 'image', source: { type: 'base64', media_type, data: part.data } })
        } else
          blocks.push({
            type: 'text',
            text: `[an ${part.mediaType} image: Anthropic does not take this type]`,
          })
      }
      content.push({
        type: 'tool_result',
        tool_use_id: outcome.call.callId,
        is_error: outcome.result.isError,
        content: blocks,
      })
      contexts.push(...contextTexts(outcome.result))
    }
    for (const text of contexts) content.push({ type: 'text', text })
    return [{ role: 'user', content }]
  },
}
