import { type ContentPart, ToolErrorCode, type ToolExecutionResult } from '@dsh/tools-core'
import type { CallOutcome } from '../types'

/**
 * The content the model sees for one outcome: the result's content, except that an
 * `INVALID_ARGS` caused by argument text that was not JSON says so (the pipeline only saw a
 * string where an object belongs, and the model should learn its JSON was broken).
 */
export function modelContent({ call, result }: CallOutcome): readonly ContentPart[] {
  if (
    call.malformed !== undefined &&
    result.isError &&
    result.error.info?.code === ToolErrorCode.INVALID_ARGS
  ) {
    return [
      {
        type: 'text',
        text: `Error: invalid arguments: the argument text is not valid JSON (${call.malformed})`,
      },
    ]
  }
  return result.content
}

/** The text parts of `content`, joined by newlines (images left to the caller). */
export function textOf(content: readonly ContentPart[]): string {
  let text = ''
  for (const part of content) {
    if (part.type !== 'text') continue
    text = text === '' ? part.text : `${text}\n${part.text}`
  }
  return text
}

/** The `data:` URL of a base64 image, as OpenAI's image parts take it. */
export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`
}

/**
 * A result's additional contexts as the text the model reads after the results, one block per
 * context (the same `<context source=…>` framing the agent demo uses).
 */
export function contextTexts(result: ToolExecutionResult): string[] {
  const contexts = result.additionalContexts
  if (contexts === undefined || contexts.length === 0) return []
  return contexts.map((context) => `<context source="${context.source}">\n${context.text}\n</context>`)
}
