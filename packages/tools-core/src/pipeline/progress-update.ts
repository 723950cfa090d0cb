import type { ToolProgressUpdate } from '../types'

/** The longest `message` a progress update keeps; longer ones are cut and end with `…`. */
export const MAX_PROGRESS_MESSAGE_LENGTH = 1000

function read(source: object, key: string): unknown {
  try {
    return (source as Record<string, unknown>)[key]
  } catch {
    // A throwing getter drops that field only; progress never throws into the body.
    return undefined
  }
}

function cap(message: string): string {
  let end = MAX_PROGRESS_MESSAGE_LENGTH - 1
  // Never split a surrogate pair: the cut message stays well-formed UTF-16.
  const last = message.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${message.slice(0, end)}…`
}

/**
 * Rebuild a body's progress report from its valid fields: `message` a string (capped),
 * `progress`/`total` finite numbers. Returns `undefined` when nothing valid remains, so a
 * garbage report emits nothing.
 */
export function sanitizeProgress(update: unknown): ToolProgressUpdate | undefined {
  if (typeof update !== 'object' || update === null) return undefined
  const out: { message?: string; progress?: number; total?: number } = {}
  const message = read(update, 'message')
  if (typeof message === 'string') {
    out.message = message.length > MAX_PROGRESS_MESSAGE_LENGTH ? cap(message) : message
  }
  const progress = read(update, 'progress')
  if (typeof progress === 'number' && Number.isFinite(progress)) out.progress = progress
  const total = read(update, 'total')
  if (typeof total === 'number' && Number.isFinite(total)) out.total = total
  if (out.message === undefined && out.progress === undefined && out.total === undefined) return undefined
  return Object.freeze(out)
}
