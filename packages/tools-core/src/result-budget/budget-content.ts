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
  /** The size of what this entry stands for in the original content. */
  original: number
}

function sizeOf(part: ContentPart): number {
  return part.type === 'text' ? utf8Length(part.text) : part.data.length
}

function textPart(text: string): Sized {
  return { part: Object.freeze({ type: 'text', text }), size: utf8Length(text), cuttable: false, original: 0 }
}

/**
 * The text kept behind a handle: a lone text part verbatim (the usual case: a grep or a
 * fetch), otherwise every part on its own line, images as `data:` URLs.
 */
export function documentOf(content: ToolContent): string {
  let text = ''
  for (let index = 0; index < content.length; index++) {
    const part = content[index]!
    if (index > 0) text += '\n'
    text += part.type === 'text' ? part.text : `data:${part.mediaType};base64,${part.data}`
  }
  return text
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
  const sizes = new Float64Array(content.length)
  let original = 0
  for (let index = 0; index < content.length; index++) original += sizes[index] = sizeOf(content[index]!)
  if (original <= maxBytes) return undefined
  const note = keep(documentOf(content))
  const entry = (part: ContentPart, index: number): Sized => {
    const size = sizes[index]!
    return { part, size, cuttable: part.type === 'text', original: size }
  }
  let sized: Sized[]
  if (content.length > MAX_KEPT_PARTS) {
    // Only the kept head and tail become entries: a million tiny parts cost one pass, not a million objects.
    const head = MAX_KEPT_PARTS / 2
    const tail = MAX_KEPT_PARTS / 2 - 1
    let middleBytes = 0
    for (let index = head; index < content.length - tail; index++) middleBytes += sizes[index]!
    const count = content.length - head - tail
    const marker = { ...textPart(partsMarker(count, middleBytes, note)), original: middleBytes }
    const tailStart = content.length - tail
    sized = [
      ...content.slice(0, head).map((part, index) => entry(part, index)),
      marker,
      ...content.slice(tailStart).map((part, index) => entry(part, tailStart + index)),
    ]
  } else {
    sized = content.map(entry)
  }
  let sum = total(sized)
  const images = sized.filter((entry) => entry.part.type === 'image').sort((a, b) => b.size - a.size)
  for (const image of images) {
    if (sum <= maxBytes) break
    const part = image.part as Extract<ContentPart, { type: 'image' }>
    const replacement = { ...textPart(imageNote(part.mediaType, image.size, note)), original: image.size }
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
      entry.size = utf8Length(text)
    }
  }
  return Object.freeze(collapseOverflow(sized, maxBytes, note).map((entry) => entry.part))
}

/**
 * Last resort when many parts each got a share smaller than a marker: keep the leading parts
 * that fit and stand one marker part in for the rest, so the cap holds.
 */
function collapseOverflow(sized: Sized[], maxBytes: number, note: HandleNote): Sized[] {
  if (total(sized) <= maxBytes) return sized
  const reserve = utf8Length(partsMarker(sized.length, Number.MAX_SAFE_INTEGER, note))
  let used = 0
  let kept = 0
  while (kept < sized.length && used + sized[kept]!.size + reserve <= maxBytes) used += sized[kept++]!.size
  const rest = sized.slice(kept)
  let restBytes = 0
  for (const entry of rest) restBytes += entry.original
  return [...sized.slice(0, kept), textPart(partsMarker(rest.length, restBytes, note))]
}
