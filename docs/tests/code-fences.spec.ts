// Every markdown file's code fences pair up: no block left open, no closing fence with prose
// glued to it (which leaves the block open and turns the following prose into code).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanFences } from './support/markdown-fences'
import { markdownFiles, ROOT } from './support/workspace'

describe('code fences in markdown', () => {
  it('the scanner finds blocks, their info strings and the two mistakes', () => {
    const good = scanFences('a\n```ts fragment\nx()\n```\n  ```sh\n  ls\n  ```\n')
    expect(good.problems).toEqual([])
    expect(good.blocks).toEqual([
      { line: 2, lang: 'ts', tags: ['fragment'], code: 'x()' },
      { line: 5, lang: 'sh', tags: [], code: 'ls' },
    ])
    // A ```` block may show ``` lines; only a long enough bare fence closes it.
    expect(scanFences('````md\n```ts\n```\n````\n').problems).toEqual([])
    expect(scanFences('```ts\nx()\n``` `presentCall`, and so on\n```\n').problems).toEqual([
      {
        line: 3,
        message:
          '"``` `presentCall`, and so on" does not close the block opened at line 1 (text after the fence)',
      },
    ])
    expect(scanFences('text\n``` `inline`\n').problems).toHaveLength(1)
    expect(scanFences('```ts\nnever closed\n').problems).toEqual([
      { line: 1, message: 'this code block is never closed' },
    ])
  })

  it('every markdown file in the repository has well-formed fences', () => {
    const files = markdownFiles()
    expect(files).toContain('packages/tools-core/README.md')
    const problems = files.flatMap((file) =>
      scanFences(readFileSync(join(ROOT, file), 'utf8')).problems.map(
        (problem) => `${file}:${problem.line}: ${problem.message}`,
      ),
    )
    expect(problems).toEqual([])
  })
})
