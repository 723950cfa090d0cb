// Every TypeScript sample in the root README and in examples/*/README.md runs as pasted.
//
// Each ```ts block is written to a temp file inside a workspace package whose dependencies
// cover its imports (the root README's samples: this package, which depends on every shipped
// package; an example's README: that example, which imports itself by name), then run with
// `node --conditions=@dsh/source --import tsx` — the sources, so no build is needed — and must
// exit 0 with nothing on stderr. A block that is deliberately a fragment is fenced as
// ```ts fragment: it is not run, and the README must say so next to it (none today).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../../', import.meta.url))
const SCRATCH = '.readme-samples'

interface Sample {
  readonly readme: string
  readonly index: number
  readonly line: number
  readonly fragment: boolean
  readonly code: string
  /** The package directory the sample runs in. */
  readonly host: string
}

/** The ```ts blocks of a markdown file, with their line numbers. */
function tsBlocks(markdown: string): { line: number; fragment: boolean; code: string }[] {
  const blocks: { line: number; fragment: boolean; code: string }[] = []
  for (const match of markdown.matchAll(/^```ts([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    const info = match[1]!.trim()
    if (info !== '' && info !== 'fragment') throw new Error(`unknown ts block info string "${info}"`)
    blocks.push({
      line: markdown.slice(0, match.index).split('\n').length,
      fragment: info === 'fragment',
      code: match[2]!,
    })
  }
  return blocks
}

async function collect(): Promise<Sample[]> {
  const readmes: { path: string; host: string }[] = [
    { path: join(root, 'README.md'), host: join(root, 'examples', 'agent-demo') },
  ]
  for (const name of (await readdir(join(root, 'examples'))).sort()) {
    const path = join(root, 'examples', name, 'README.md')
    if (existsSync(path)) readmes.push({ path, host: join(root, 'examples', name) })
  }
  const samples: Sample[] = []
  for (const { path, host } of readmes) {
    const blocks = tsBlocks(await readFile(path, 'utf8'))
    for (const [index, block] of blocks.entries())
      samples.push({ readme: relative(root, path), index, host, ...block })
  }
  return samples
}

const samples = await collect()
const hosts = new Set(samples.map((sample) => sample.host))

afterAll(async () => {
  for (const host of hosts) await rm(join(host, SCRATCH), { recursive: true, force: true })
})

describe('README samples', () => {
  it('finds the samples (the root README has five that run; each example with a README at least one)', () => {
    // the tour's provider loop is a fragment: it needs an API key (packages/tools-providers checks it)
    expect(samples.filter((sample) => sample.readme === 'README.md' && !sample.fragment)).toHaveLength(5)
    expect(samples.filter((sample) => sample.readme.startsWith('examples/')).length).toBeGreaterThanOrEqual(2)
  })

  it('the extractor reads info strings and refuses unknown ones', () => {
    expect(tsBlocks('x\n```ts\na()\n```\n```ts fragment\nb\n```\n```sh\nc\n```\n')).toEqual([
      { line: 2, fragment: false, code: 'a()\n' },
      { line: 5, fragment: true, code: 'b\n' },
    ])
    expect(() => tsBlocks('```ts run\nx\n```\n')).toThrow(/unknown ts block info string "run"/)
  })

  it.each(
    samples
      .filter((sample) => !sample.fragment)
      .map((sample) => [`${sample.readme}:${sample.line}`, sample] as const),
  )(
    '%s runs as pasted',
    async (_label, sample) => {
      const dir = join(sample.host, SCRATCH)
      await mkdir(dir, { recursive: true })
      const file = join(dir, `${sample.readme.replace(/[^a-z0-9]+/gi, '-')}-${sample.index + 1}.ts`)
      await writeFile(file, sample.code)
      const { stderr } = await run(process.execPath, ['--conditions=@dsh/source', '--import', 'tsx', file], {
        cwd: sample.host,
        timeout: 90_000,
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(
          `${sample.readme}:${sample.line} failed\n${error.stdout ?? ''}${error.stderr ?? error.message}`,
        )
      })
      expect(stderr).toBe('')
    },
    120_000,
  )
})
