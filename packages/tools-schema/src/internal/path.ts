/** A lazily formatted location: a linked list from leaf to root. */
export interface PathNode {
  readonly parent: PathNode | undefined
  readonly key: string | number
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Formats one path segment: `.name`, `[3]` or `["a b"]`. */
export function formatSegment(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}

/** Appends a segment to an already formatted path. */
export function joinPath(path: string, key: string | number): string {
  return path + formatSegment(key)
}

/** Formats a linked path iteratively (stack-safe for any depth). */
export function formatPath(node: PathNode | undefined): string {
  const segments: string[] = []
  for (let cursor = node; cursor !== undefined; cursor = cursor.parent) {
    segments.push(formatSegment(cursor.key))
  }
  let out = '$'
  for (let i = segments.length - 1; i >= 0; i--) out += segments[i]
  return out
}
