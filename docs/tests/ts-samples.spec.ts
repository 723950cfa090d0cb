// Every TypeScript sample in the markdown docs (package and example READMEs, docs/*.md, the root
// README) compiles against the workspace sources. A sample that cannot compile on its own — a
// shape, an object-literal member — is fenced ```ts fragment and is not checked; keep those few.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTsSamples, type TsSample } from './support/check-ts-samples'
import { scanFences } from './support/markdown-fences'
import { markdownFiles, packageOf, ROOT, workspacePackages } from './support/workspace'

const TS_LANGS = new Set(['ts', 'typescript'])
const TAGS = new Set(['fragment'])
/** Docs whose TypeScript samples are checked: what a reader of the project reads. */
const DOCS = /^(README\.md|docs\/[^/]+\.md|(packages|examples)\/[^/]+\/README\.md)$/

const packages = workspacePackages()
/** The package a README belongs to; docs/ and the root README describe the core. */
const packageFor = (file: string) =>
  packageOf(join(ROOT, file), packages) ?? packages.find((pkg) => pkg.name === '@dsh/tools-core')
const samples: TsSample[] = []
const fragments: string[] = []
const unknownTags: string[] = []
for (const file of markdownFiles().filter((path) => DOCS.test(path))) {
  const { blocks } = scanFences(readFileSync(join(ROOT, file), 'utf8'))
  for (const block of blocks.filter((entry) => TS_LANGS.has(entry.lang))) {
    for (const tag of block.tags) if (!TAGS.has(tag)) unknownTags.push(`${file}:${block.line} "${tag}"`)
    if (block.tags.includes('fragment')) fragments.push(`${file}:${block.line}`)
    else samples.push({ file, line: block.line, code: block.code, pkg: packageFor(file) })
  }
}

describe('TypeScript samples in the docs', () => {
  it('finds the samples of every package README', () => {
    for (const pkg of packages.filter((entry) => entry.dir.includes('/packages/')))
      expect(
        samples.some((sample) => sample.pkg === pkg),
        pkg.name,
      ).toBe(true)
  })

  it('knows every info-string tag (```ts fragment is the only one)', () => {
    expect(unknownTags).toEqual([])
  })

  it('marks few samples as unchecked fragments', () => {
    expect(fragments.length, fragments.join('\n')).toBeLessThanOrEqual(4)
  })

  it('every checked sample compiles against the workspace sources', () => {
    const errors = checkTsSamples(samples, packages)
    // Fix the sample (names the reader's code would have: support/snippet-prelude.ts), or fence a
    // block that is deliberately not code (a shape, an object member) as ```ts fragment.
    expect(
      errors.map((error) => `${error.file}:${error.line}: ${error.message}`),
      'README samples that do not compile',
    ).toEqual([])
  }, 60_000)
})
