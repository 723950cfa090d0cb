import type { ToolContent } from '@dsh/tools-core'

/** The text a result shows the model (image parts become a placeholder). */
export function contentText(content: ToolContent): string {
  return content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mediaType}]`)).join('\n')
}
