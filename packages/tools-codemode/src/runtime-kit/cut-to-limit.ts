/**
 * Cutting text that crosses into a program to the longest it may receive. A tool's failure
 * message and name are as unbounded as its value (a 100 MB error message took a capped worker,
 * and with QuickJS the host process, down), but unlike a value they still carry meaning when
 * shortened, so they are cut rather than refused. Shared by every runtime that answers calls.
 */

/**
 * `text` if it has at most `max` UTF-16 code units; otherwise its start, followed by a note
 * with the original length, in exactly `max` units (just the note's start if `max` is shorter
 * than the note itself).
 */
export function cutToLimit(text: string, max: number): string {
  if (text.length <= max) return text
  const note = ` … (cut from ${text.length} characters: the program may receive at most ${max})`
  if (note.length >= max) return note.slice(0, Math.max(0, max))
  return text.slice(0, max - note.length) + note
}
