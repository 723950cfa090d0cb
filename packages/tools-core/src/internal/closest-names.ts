/** At most this many suggestions in one "did you mean" hint. */
const MAX_SUGGESTIONS = 3
/** Longer requested names are not compared (valid names have at most 64 characters). */
const MAX_COMPARED_LENGTH = 128

/** Case-insensitive edit distance (insert, delete, substitute, swap adjacent), O(a·b) time. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let before = new Array<number>(y.length + 1).fill(0)
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  let current = new Array<number>(y.length + 1).fill(0)
  for (let i = 1; i <= x.length; i++) {
    current[0] = i
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        best = Math.min(best, before[j - 2]! + 1)
      }
      current[j] = best
    }
    ;[before, previous, current] = [previous, current, before]
  }
  return previous[y.length]!
}

/**
 * The visible names closest to `requested`, best first (ties in name order): a name within an
 * edit distance of about a third of its length, or one containing / contained in the request.
 * Only `candidates` are considered, so the caller decides what the agent may learn of.
 */
export function closestNames(requested: string, candidates: Iterable<string>): string[] {
  if (requested.length === 0 || requested.length > MAX_COMPARED_LENGTH) return []
  const lower = requested.toLowerCase()
  const scored: { name: string; score: number }[] = []
  for (const name of candidates) {
    const limit = Math.max(2, Math.floor(Math.max(name.length, requested.length) / 3))
    const d = distance(requested, name)
    const other = name.toLowerCase()
    const contains =
      lower.length >= 3 && other.length >= 3 && (other.includes(lower) || lower.includes(other))
    if (d <= limit || contains) scored.push({ name, score: d })
  }
  scored.sort((p, q) => p.score - q.score || (p.name < q.name ? -1 : p.name > q.name ? 1 : 0))
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name)
}

/** The UNKNOWN_TOOL message: `unknown tool: <name>`, plus a "did you mean" hint when one fits. */
export function unknownToolMessage(requested: string, visible: Iterable<string>): string {
  const close = closestNames(requested, visible)
  if (close.length === 0) return `unknown tool: ${requested}`
  const listed = close.map((name) => `\`${name}\``)
  const last = listed.pop()!
  const options = listed.length === 0 ? last : `${listed.join(', ')} or ${last}`
  return `unknown tool: ${requested} — did you mean ${options}?`
}
