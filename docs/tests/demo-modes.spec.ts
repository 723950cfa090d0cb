// The agent demo's `--mode` values, wherever the docs list them, are exactly what its CLI accepts.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEMO_MODES, parseDemoOptions, USAGE } from '../../examples/agent-demo/src/cli-options'
import { markdownFiles, ROOT } from './support/workspace'

/** A value list after `--mode` on one line: `native | code`, `native\|code` (in a table), `native|code`. */
const LIST = /\b\w+(?:\s*\\?\|\s*\w+)+/

/** Every `--mode` mention of `text`: the list that follows it, or the single value given. */
export function modeMentions(text: string): { line: number; values: string[] }[] {
  const mentions: { line: number; values: string[] }[] = []
  for (const [index, line] of text.split('\n').entries()) {
    for (const match of line.matchAll(/--mode\b/g)) {
      const after = line.slice(match.index + match[0].length)
      const list = LIST.exec(after)
      const single = /^[ =]([a-z]+)\b/.exec(after)
      const values = list ? list[0].split(/\s*\\?\|\s*/) : single ? [single[1]!] : []
      if (values.length > 0) mentions.push({ line: index + 1, values })
    }
  }
  return mentions
}

const sources = [
  ...markdownFiles(),
  ...readdirSync(join(ROOT, 'examples/agent-demo/src')).map((name) => `examples/agent-demo/src/${name}`),
]

describe('the demo --mode list in the docs', () => {
  it('reads lists and single values', () => {
    expect(modeMentions('run `--mode native\\|code` or\n--mode code # one of: a | b\n--mode both')).toEqual([
      { line: 1, values: ['native', 'code'] },
      { line: 2, values: ['a', 'b'] },
      { line: 3, values: ['both'] },
    ])
  })

  it('DEMO_MODES is what the parser accepts', () => {
    for (const mode of DEMO_MODES) expect(() => parseDemoOptions(['--mode', mode], {}, false)).not.toThrow()
    expect(() => parseDemoOptions(['--mode', 'every'], {}, false)).toThrow(
      DEMO_MODES.join(', ').replace(/, (\w+)$/, ' or $1'),
    )
    expect(USAGE).toContain(DEMO_MODES.join(' | '))
  })

  it('every list equals DEMO_MODES and every single value is one of them', () => {
    const wrong: string[] = []
    let lists = 0
    for (const file of sources) {
      for (const { line, values } of modeMentions(readFileSync(join(ROOT, file), 'utf8'))) {
        // In source files only lists count (`--mode must be …` is a message built from DEMO_MODES).
        if (values.length === 1 && !file.endsWith('.md')) continue
        if (values.length === 1 ? DEMO_MODES.includes(values[0]!) : values.join('|') === DEMO_MODES.join('|'))
          lists += values.length > 1 ? 1 : 0
        else
          wrong.push(
            `${file}:${line}: --mode ${values.join(' | ')} (the CLI takes ${DEMO_MODES.join(' | ')})`,
          )
      }
    }
    expect(wrong).toEqual([])
    expect(lists).toBeGreaterThanOrEqual(3) // the root README, the demo's README, main.ts
  })
})
