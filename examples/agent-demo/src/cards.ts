/**
 * A plain-text renderer for the cards tools choose through `presentCall` / `presentResult`.
 * A real UI draws these as widgets; the demo draws them as boxed text so the terminal shows
 * what the UI would. Paths under the workspace print relative to it, so output is stable.
 */
import type { FileDiff, ToolCallView, ToolResultView } from '@dsh/tools-core'

/** How cards are drawn. */
export interface CardStyle {
  /** ANSI colours (for a TTY). */
  readonly color: boolean
  /** Longest body before the card elides the middle. */
  readonly maxLines: number
  /** Prefix replaced by `.` in paths and text (the temp workspace). */
  readonly workspace?: string
  /** Indentation for nested (Code Mode sub-call) cards. */
  readonly indent?: string
}

const codes = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const
type Colour = keyof typeof codes

function paint(style: CardStyle, colour: Colour, text: string): string {
  return style.color ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text
}

function relative(style: CardStyle, text: string): string {
  const root = style.workspace
  if (!root) return text
  return text.split(`${root}/`).join('./').split(root).join('.')
}

function clip(style: CardStyle, lines: readonly string[]): string[] {
  if (lines.length <= style.maxLines) return [...lines]
  const head = Math.ceil(style.maxLines / 2)
  const tail = style.maxLines - head
  return [
    ...lines.slice(0, head),
    `… ${lines.length - head - tail} more lines …`,
    ...lines.slice(lines.length - tail),
  ]
}

function box(style: CardStyle, header: string, body: readonly string[], footer?: string): string[] {
  const pad = style.indent ?? ''
  const bar = paint(style, 'dim', '│')
  const out = [`${pad}${paint(style, 'dim', '┌')} ${relative(style, header)}`]
  for (const line of clip(style, body)) out.push(`${pad}${bar} ${relative(style, line)}`)
  out.push(
    `${pad}${paint(style, 'dim', '└')}${footer ? ` ${paint(style, 'dim', relative(style, footer))}` : ''}`,
  )
  return out
}

function textLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return []
  return text.replace(/\n$/, '').split('\n')
}

/**
 * The patch lines of `diffs`. A call card's diff is the proposal (`old_string` → `new_string`)
 * before the file is read, so its hunk header numbers the snippet, not the file (`@@ -1,1 +1,1
 * @@`): call cards drop hunk headers, and the result card shows the applied patch with its real
 * line numbers and context.
 */
function diffLines(style: CardStyle, diffs: readonly FileDiff[], hunkHeaders: boolean): string[] {
  const out: string[] = []
  for (const diff of diffs) {
    out.push(paint(style, 'bold', `${diff.path}  (+${diff.added} −${diff.removed})`))
    for (const line of textLines(diff.patch)) {
      if (/^(\+\+\+|---|Index:|\\ No newline|=+$)/.test(line)) continue
      if (line.startsWith('+')) out.push(paint(style, 'green', line))
      else if (line.startsWith('-')) out.push(paint(style, 'red', line))
      else if (line.startsWith('@@')) {
        if (hunkHeaders) out.push(paint(style, 'cyan', line))
      } else out.push(line)
    }
  }
  return out
}

/** Lines for the card a call shows while it runs. */
export function renderCallCard(view: ToolCallView, style: CardStyle, tag = ''): string[] {
  const lead = tag ? `${paint(style, 'dim', tag)} ` : ''
  switch (view.card) {
    case 'terminal': {
      const header = `${lead}${paint(style, 'magenta', '$')} ${paint(style, 'bold', view.title)}`
      const body = [view.description, view.cwd ? `cwd ${view.cwd}` : undefined].filter(
        (line) => line !== undefined,
      )
      return [
        `${style.indent ?? ''}${relative(style, header)}${body.length ? paint(style, 'dim', `   # ${relative(style, body.join(' · '))}`) : ''}`,
      ]
    }
    case 'diff':
      return box(
        style,
        `${lead}${paint(style, 'yellow', '✎')} ${paint(style, 'bold', view.title)}`,
        diffLines(style, view.diffs, false),
      )
    case 'generic': {
      const header = `${lead}${paint(style, 'blue', '▸')} ${paint(style, 'bold', view.title)}`
      const input = view.rawInput
      if (
        view.content === undefined &&
        input !== null &&
        typeof input === 'object' &&
        !Array.isArray(input)
      ) {
        const entries = Object.entries(input)
        const multiline = entries.some(([, value]) => typeof value === 'string' && value.includes('\n'))
        if (multiline) {
          // e.g. run_code: show short fields inline and multi-line strings (the program) as a block
          const body = entries.flatMap(([key, value]) =>
            typeof value === 'string' && value.includes('\n')
              ? [paint(style, 'dim', `${key}:`), ...textLines(value).map((line) => `  ${line}`)]
              : [
                  `${paint(style, 'dim', `${key}:`)} ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                ],
          )
          return box({ ...style, maxLines: Math.max(style.maxLines, 40) }, header, body)
        }
      }
      const detail = view.content ?? (input === undefined ? undefined : JSON.stringify(input))
      return [
        `${style.indent ?? ''}${relative(style, header)}${detail ? paint(style, 'dim', ` ${relative(style, detail)}`) : ''}`,
      ]
    }
  }
}

/** Lines for the card a finished call shows. */
export function renderResultCard(view: ToolResultView, style: CardStyle): string[] {
  switch (view.card) {
    case 'terminal': {
      // without presentation meta (a presenter fallback) the exit status may be unknown
      const status =
        view.signal != null
          ? paint(style, 'red', `killed by ${view.signal}`)
          : view.exitCode === undefined
            ? undefined
            : view.exitCode === 0
              ? paint(style, 'green', 'exit 0')
              : paint(style, 'red', `exit ${view.exitCode ?? '?'}`)
      return box(style, view.title ?? 'terminal', textLines(view.output), status)
    }
    case 'diff':
      return box(style, view.title ?? 'diff', diffLines(style, view.diffs, true))
    case 'read': {
      const width = String(view.lines.at(-1)?.number ?? 1).length
      const body = view.lines.map(
        (line) => `${paint(style, 'dim', String(line.number).padStart(width))}  ${line.text}`,
      )
      const first = view.lines[0]?.number ?? view.offset
      const last = view.lines.at(-1)?.number ?? view.offset
      return box(
        style,
        `${paint(style, 'cyan', 'read')} ${view.title ?? view.path}`,
        body,
        `lines ${first}–${last} of ${view.totalLines}`,
      )
    }
    case 'search': {
      const truncated = view.truncated ? ' (truncated)' : ''
      if (view.shape === 'paths') {
        return box(
          style,
          `${paint(style, 'cyan', 'search')} ${view.title ?? 'paths'}`,
          view.paths,
          `${view.total} paths${truncated}`,
        )
      }
      const body = view.files.flatMap((file) =>
        file.matches.map(
          (match) => `${paint(style, 'bold', file.path)}:${match.number}: ${match.text.trim()}`,
        ),
      )
      return box(
        style,
        `${paint(style, 'cyan', 'search')} ${view.title ?? 'matches'}`,
        body,
        `${view.total} matches in ${view.files.length} files${truncated}`,
      )
    }
    case 'web':
      if (view.kind === 'fetch') return box(style, view.title ?? view.url, textLines(view.summary), view.url)
      return box(
        style,
        view.title ?? 'web search',
        view.results.map((result) => `${result.title} — ${result.url}`),
        `${view.results.length} results`,
      )
    case 'generic':
      return box(style, view.title ?? 'result', textLines(view.content))
  }
}
