/**
 * The rejection of a call to a name that is not a binding, built in the guest (both engines):
 * the host treats a call to a name outside the run's set as a protocol breach, so a mistyped
 * name never leaves the engine. The message is the Code Mode bridge's own wording, with the
 * same "did you mean" a native call gets: a port of tools-core's `closestNames` (case-insensitive
 * edit distance with adjacent swaps, within about a third of the length, or containment; at
 * most three, best first) over this run's binding names, on captured intrinsics only.
 */
import { intrinsics as I } from './intrinsics'

const MAX_SUGGESTIONS = 3
const MAX_COMPARED_LENGTH = 128
const TOOL_SEARCH = 'tool_search'

const lower = (text: string): string => I.apply(I.toLowerCase, text, []) as string
const includes = (text: string, part: string): boolean => I.apply(I.stringIncludes, text, [part]) as boolean

/** Case-insensitive edit distance (insert, delete, substitute, swap adjacent) of lower-cased `x`, `y`. */
function distance(x: string, y: string): number {
  let before: number[] = []
  let previous: number[] = []
  let current: number[] = []
  for (let j = 0; j <= y.length; j++) {
    before[j] = 0
    previous[j] = j
    current[j] = 0
  }
  for (let i = 1; i <= x.length; i++) {
    current[0] = i
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let best = I.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = I.min(best, before[j - 2]! + 1)
      current[j] = best
    }
    const spare = before
    before = previous
    previous = current
    current = spare
  }
  return previous[y.length]!
}

/** Up to three binding names close to `requested`, best first (ties in name order). */
function closest(requested: string, names: readonly string[]): string[] {
  const picked: string[] = []
  const scores: number[] = []
  if (requested.length === 0 || requested.length > MAX_COMPARED_LENGTH) return picked
  const wanted = lower(requested)
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!
    const other = lower(name)
    const limit = I.max(2, I.floor(I.max(name.length, requested.length) / 3))
    const d = distance(wanted, other)
    const contains =
      wanted.length >= 3 && other.length >= 3 && (includes(other, wanted) || includes(wanted, other))
    if (d > limit && !contains) continue
    // Insert into the ranked list (kept at most MAX_SUGGESTIONS long).
    let at = picked.length
    while (at > 0 && (scores[at - 1]! > d || (scores[at - 1] === d && picked[at - 1]! > name))) at--
    if (at >= MAX_SUGGESTIONS) continue
    for (let m = I.min(picked.length, MAX_SUGGESTIONS - 1); m > at; m--) {
      picked[m] = picked[m - 1]!
      scores[m] = scores[m - 1]!
    }
    picked[at] = name
    scores[at] = d
  }
  return picked
}

/** `unknown tool: <name> is not a binding of this run`, with close names and the deferred-tool hint. */
export function unknownBindingMessage(name: string, names: readonly string[]): string {
  const close = closest(name, names)
  let suggestion = ''
  for (let k = 0; k < close.length; k++) {
    const sep = k === 0 ? ' — did you mean ' : k === close.length - 1 ? ' or ' : ', '
    suggestion += sep + '`' + close[k] + '`'
  }
  if (suggestion !== '') suggestion += '?'
  let deferred = ''
  for (let k = 0; k < names.length; k++) {
    if (names[k] === TOOL_SEARCH) {
      deferred =
        '; a deferred tool must be loaded with `tools.' +
        TOOL_SEARCH +
        '(...)` first (it is a binding from the next run)'
    }
  }
  return 'unknown tool: ' + name + ' is not a binding of this run' + suggestion + deferred
}
