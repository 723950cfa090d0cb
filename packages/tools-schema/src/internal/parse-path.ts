/**
 * Reads a formatted violation path (`$.a[0]["b c"]`, see `formatSegment`) back into its keys,
 * for Standard Schema issue paths.
 */
export function parsePath(path: string): (string | number)[] {
  const keys: (string | number)[] = []
  let i = 1 // past `$`
  while (i < path.length) {
    if (path[i] === '.') {
      const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path.slice(i + 1))!
      keys.push(match[0])
      i += 1 + match[0].length
    } else if (path[i + 1] === '"') {
      // A JSON string literal: scan to its unescaped closing quote.
      let end = i + 2
      while (path[end] !== '"') end += path[end] === '\\' ? 2 : 1
      keys.push(JSON.parse(path.slice(i + 1, end + 1)) as string)
      i = end + 2
    } else {
      const end = path.indexOf(']', i)
      keys.push(Number(path.slice(i + 1, end)))
      i = end + 1
    }
  }
  return keys
}
