/**
 * The Markdown code fence around a generated SDK. Tool metadata can contain backticks, so the
 * fence is one backtick longer than the longest run inside the code (CommonMark: a fence is
 * closed only by a run at least as long), and every line of metadata text is prefixed anyway.
 */
export function fenced(language: string, code: string): string {
  let longest = 0
  for (const match of code.matchAll(/`+/g)) longest = Math.max(longest, match[0].length)
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${code}\n${fence}`
}
