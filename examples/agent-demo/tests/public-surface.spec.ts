// scripts/public-surface.ts reads what a package entry exports and what its README's API section
// lists; the reference plugins' public-surface tests pin both with it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { publicSurface, readmeApiNames } from '../../../scripts/public-surface'

const dir = mkdtempSync(join(tmpdir(), 'public-surface-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('publicSurface', () => {
  it('splits values from type-only names, aliases and default included', () => {
    const index = file(
      'index.ts',
      [
        '// a comment',
        "export type { A, B } from './a'",
        "export { c, type D, e as E } from './c'",
        "export { default, default as Plugin } from './plugin'",
        "export * as ns from './ns'",
      ].join('\n'),
    )
    expect(publicSurface(index)).toEqual({
      values: ['E', 'Plugin', 'c', 'default', 'ns'],
      types: ['A', 'B', 'D'],
    })
  })

  it('refuses an `export *`, which hides what it exports, and declarations in the entry', () => {
    expect(() => publicSurface(file('star.ts', "export * from './all'"))).toThrow(/hides what it exports/)
    expect(() => publicSurface(file('decl.ts', 'export const x = 1'))).toThrow(/re-exports only/)
  })
})

describe('readmeApiNames', () => {
  it('reads the backticked names before the dash of each top-level bullet of the API section', () => {
    const readme = file(
      'README.md',
      [
        '## Usage',
        '- `notApi` — outside the section',
        '## API',
        'Prose naming `prose` is not a list.',
        '- `name`, `inject`, `apply` — the plugin, with `described` names after the dash',
        '  - `nested` — a nested bullet describes a member',
        '- types `Args`, `Result` — types',
        '## Error codes',
        '- `AFTER` — outside the section',
      ].join('\n'),
    )
    expect(readmeApiNames(readme)).toEqual(['Args', 'Result', 'apply', 'inject', 'name'])
  })
})
