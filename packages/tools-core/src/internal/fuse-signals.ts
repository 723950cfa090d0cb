/** A signal that aborts when either input aborts (the first one's reason wins). */
export function fuseSignals(first: AbortSignal, second: AbortSignal): AbortSignal {
  if (first === second) return first
  if (first.aborted) return first
  if (second.aborted) return second
  return AbortSignal.any([first, second])
}
