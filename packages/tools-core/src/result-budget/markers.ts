/**
 * The wording of every elision marker, in one place so the text cutter, the JSON cutter and
 * the content budget agree (and tests can recognise a marker by its prefix).
 */

import { countNoun } from '../internal/count-noun'

/** Every marker contains this text; nothing else a cutter writes does. */
export const ELISION_TAG = '[elided '

/** Where the full result can be read back, or why it cannot. */
export type HandleNote = { readonly handle: string } | { readonly notKept: string }

/** The tail of a marker: how to read the full result (no quotes: it sits inside JSON strings too). */
export function whereToRead(note: HandleNote): string {
  return 'handle' in note
    ? `full result: read_result handle=${note.handle}`
    : `full result not kept: ${note.notKept}`
}

/** A marker for cut text: bytes and lines removed. */
export function textMarker(bytes: number, lines: number, note: HandleNote): string {
  return `\n…${ELISION_TAG}${countNoun(bytes, 'byte')}, ${countNoun(lines, 'line')}; ${whereToRead(note)}]…\n`
}

/** A marker inside a cut JSON string (naming the handle: it may be the only marker). */
export function stringMarker(chars: number, note: HandleNote): string {
  return `…${ELISION_TAG}${countNoun(chars, 'char')}; ${whereToRead(note)}]…`
}

/** A marker item standing for elided array items. */
export function itemsMarker(count: number, note: HandleNote): string {
  return `${ELISION_TAG}${countNoun(count, 'item')}; ${whereToRead(note)}]`
}

/** The key and value standing for elided object properties. */
export const KEYS_MARKER_KEY = '…'

/** A marker value standing for elided object properties. */
export function keysMarker(count: number, note: HandleNote): string {
  return `${ELISION_TAG}${countNoun(count, 'key')}; ${whereToRead(note)}]`
}

/** A marker standing for a whole subtree (too deep, or nothing fits). */
export function subtreeMarker(bytes: number | undefined, note: HandleNote): string {
  const what = bytes === undefined ? 'a nested subtree' : `${countNoun(bytes, 'byte')} of JSON`
  return `${ELISION_TAG}${what}; ${whereToRead(note)}]`
}

/** The note that replaces an image over the budget. */
export function imageNote(mediaType: string, bytes: number, note: HandleNote): string {
  return `${ELISION_TAG}image ${mediaType}, ${countNoun(bytes, 'byte')} of base64; ${whereToRead(note)}]`
}

/** A marker part standing for a run of elided content parts. */
export function partsMarker(count: number, bytes: number, note: HandleNote): string {
  return `${ELISION_TAG}${countNoun(count, 'content part')}, ${countNoun(bytes, 'byte')}; ${whereToRead(note)}]`
}
