/**
 * Fenced code blocks of a markdown file, read the way CommonMark reads them, plus the fence
 * mistakes that make a renderer swallow the prose after a block (or a block into the prose).
 */

/** One fenced code block. */
export interface FencedBlock {
  /** 1-based line of the opening fence. */
  readonly line: number
  /** The language: the info string's first word (`ts` in ```` ```ts fragment ````). */
  readonly lang: string
  /** The info string's other words (`['fragment']`). */
  readonly tags: readonly string[]
  /** The block's text, the opening fence's indentation removed from each line. */
  readonly code: string
}

/** A fence that does not do what it looks like it does. */
export interface FenceProblem {
  readonly line: number
  readonly message: string
}

const OPENING = /^( {0,})(`{3,}|~{3,})(.*)$/

/** The fenced blocks of `markdown` and its fence problems (an empty list when every fence pairs up). */
export function scanFences(markdown: string): { blocks: FencedBlock[]; problems: FenceProblem[] } {
  const lines = markdown.split('\n')
  const blocks: FencedBlock[] = []
  const problems: FenceProblem[] = []
  let open: { line: number; indent: number; marker: string; info: string; body: string[] } | undefined
  for (const [index, text] of lines.entries()) {
    const line = index + 1
    const match = OPENING.exec(text)
    if (open === undefined) {
      if (match === null) continue
      const [, indent, marker, rest] = match as unknown as [string, string, string, string]
      // A backtick fence's info string cannot hold a backtick: such a line is inline code,
      // and almost always a closing fence with prose glued to it.
      if (marker[0] === '`' && rest.includes('`')) {
        problems.push({
          line,
          message: `"${text.trim()}" is not a fence (text after \`\`\` on the same line)`,
        })
        continue
      }
      open = { line, indent: indent.length, marker, info: rest.trim(), body: [] }
      continue
    }
    if (match !== null && match[2]![0] === open.marker[0] && match[2]!.length >= open.marker.length) {
      if (match[3]!.trim() === '') {
        const [lang = '', ...tags] = open.info.split(/\s+/).filter(Boolean)
        blocks.push({ line: open.line, lang, tags, code: open.body.join('\n') })
        open = undefined
        continue
      }
      // Inside a block, a fence with text after it does not close it: everything up to the next
      // bare fence becomes code.
      problems.push({
        line,
        message: `"${text.trim()}" does not close the block opened at line ${open.line} (text after the fence)`,
      })
    }
    open.body.push(dedent(text, open.indent))
  }
  if (open !== undefined) problems.push({ line: open.line, message: 'this code block is never closed' })
  return { blocks, problems }
}

function dedent(text: string, indent: number): string {
  let cut = 0
  while (cut < indent && text[cut] === ' ') cut++
  return text.slice(cut)
}
