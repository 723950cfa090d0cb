import type { ContentPart, ToolContent } from '../types'
import { cutJson, parseJsonDocument } from './cut-json'
import { cutText } from './cut-text'
import { type HandleNote, imageNote, partsMarker } from './markers'
import { utf8Length } from './utf8'

/** Content with more parts keeps this many (head and tail) around one marker part. */
export const MAX_KEPT_PARTS = 64

interface Sized {
  part: ContentPart
  size: number
  /** True for the tool's own text parts (cuttable); false for images and generated notes. */
  cuttable: boolean
}

function sizeOf(part: ContentPart): number {
  return part.type === 'text' ? utf8Length(part.text) : part.data.length
}

function textPart(text: string): Sized {
  return { part: Object.freeze({ type: 'text', text }), size: utf8Length(text), cuttable: false }
}

/**
 * The text kept behind a handle: a lone text part verbatim (the usual case: a grep or a
 * fetch), otherwise every part on its own line, images as `data:` URLs.
 */
export function documentOf(content: ToolContent): string {
  if (content.length === 1 && content[0]!.type === 'text') return content[0]!.text
  return content
    .map((part) => (part.type === 'text' ? part.text : `data:${part.mediaType};base64,${part.data}`))
    .join('\n')
}

function cutPart(text: string, size: number, maxBytes: number, note: HandleNote): string {
  const parsed = parseJsonDocument(text, size)
  if (parsed === undefined) return cutText(text, size, maxBytes, note)
  return cutJson(parsed, size, maxBytes, text.includes('\n') ? 2 : 0, note)
}

function total(parts: readonly Sized[]): number {
  let sum = 0
  for (const entry of parts) sum += entry.size
  return sum
}

/**
 * Fit model-facing content into `maxBytes` (text as UTF-8, images as their base64 length).
 * Returns `undefined` when it already fits. Otherwise `keep(document)` stores the full
 * content and names its handle, and the cut content is built: a run of many parts keeps head
 * and tail parts around a marker, images (largest first) give way to a note until the rest
 * can fit, and each remaining text part is cut to its proportional share of the room left,
 * structurally when it is a JSON object or array, head and tail otherwise.
 */
export function budgetContent(
  content: ToolContent,
  maxBytes: number,
  keep: (document: string) => HandleNote,
): ToolContent | undefined {
  let sized: Sized[] = content.map((part) => ({ part, size: sizeOf(part), cuttable: part.type === 'text' }))
  const original = total(sized)
  if (original <= maxBytes) return undefined
  const note = keep(documentOf(content))
  if (sized.length > MAX_KEPT_PARTS) {
    const head = MAX_KEPT_PARTS / 2
    const tail = MAX_KEPT_PARTS / 2 - 1
    const middle = sized.slice(head, sized.length - tail)
    sized = [
      ...sized.slice(0, head),
      textPart(partsMarker(middle.length, total(middle), note)),
      ...sized.slice(-tail),
    ]
  }
  let sum = total(sized)
  const images = sized.filter((entry) => entry.part.type === 'image').sort((a, b) => b.size - a.size)
  for (const image of images) {
    if (sum <= maxBytes) break
    const part = image.part as Extract<ContentPart, { type: 'image' }>
    const replacement = textPart(imageNote(part.mediaType, image.size, note))
    sum += replacement.size - image.size
    Object.assign(image, replacement)
  }
  if (sum > maxBytes) {
    const texts = sized.filter((entry) => entry.cuttable)
    const textBytes = total(texts)
    const room = Math.max(0, maxBytes - (sum - textBytes))
    for (const entry of texts) {
      const share = Math.floor((room * entry.size) / textBytes)
      if (entry.size <= share) continue
      const text = cutPart((entry.part as { text: string }).text, entry.size, share, note)
      entry.part = Object.freeze({ type: 'text', text })
    }
  }
  return Object.freeze(sized.map((entry) => entry.part))
}
