import type { ContentPart, TextContentPart } from '@dsh/tools-core'
import type { Tool } from 'ai'
import type { AiSdkToolOutput } from './types'

/** The AI SDK's `ToolResultOutput` (not exported by `ai` itself): what `toModelOutput` returns. */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>

type ContentItem = Extract<ModelOutput, { type: 'content' }>['value'][number]

function toItem(part: ContentPart): ContentItem {
  if (part.type === 'image') {
    return { type: 'file', mediaType: part.mediaType, data: { type: 'data', data: part.data } }
  }
  return { type: 'text', text: part.text }
}

/**
 * The model-facing form of a final output: the pipeline's content parts. All-text content is
 * one `text` output (every provider accepts it); content with an image is a `content` output
 * whose images are `file` parts with base64 data, as ai 7 documents them.
 */
export function toModelOutput({ output }: { output: AiSdkToolOutput }): ModelOutput {
  if (output.status !== 'done') return { type: 'json', value: { progress: { ...output.progress } } }
  const { content } = output
  if (content.every((part): part is TextContentPart => part.type === 'text')) {
    return { type: 'text', value: content.map((part) => part.text).join('\n') }
  }
  return { type: 'content', value: content.map(toItem) }
}
