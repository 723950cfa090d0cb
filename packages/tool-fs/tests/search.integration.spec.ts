import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

async function tree(files: Record<string, string | Buffer>) {
  const root = await tempDir()
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true })
    await fs.writeFile(path.join(root, name), content)
  }
  return root
}

describe('glob', () => {
  it('lists matching files sorted, skipping node_modules and .git, including dotfiles', async () => {
    const root = await tree({
      'src/b.ts': '',
      'src/a.ts': '',
      'src/nested/c.ts': '',
      'src/readme.md': '',
      '.config/x.ts': '',
      'node_modules/pkg/index.ts': '',
      '.git/hooks/x.ts': '',
    })
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const args = { pattern: '**/*.ts' }
    const result = await call('glob', args)
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(result.value).toEqual({
      pattern: '**/*.ts',
      path: '.',
      paths: ['.config/x.ts', 'src/a.ts', 'src/b.ts', 'src/nested/c.ts'],
      total: 4,
      truncated: false,
    })
    expect(text(result)).toBe('.config/x.ts\nsrc/a.ts\nsrc/b.ts\nsrc/nested/c.ts')
    expect(ctx.tools.get('glob')!.presentResult!(args, result, result.meta)).toEqual({
      card: 'search',
      shape: 'paths',
      title: '**/*.ts',
      truncated: false,
      total: 4,
      paths: ['.config/x.ts', 'src/a.ts', 'src/b.ts', 'src/nested/c.ts'],
    })
  })

  it('matches relative to path and reports paths relative to the root', async () => {
    const root = await tree({ 'src/a.ts': '', 'src/nested/b.ts': '', 'top.ts': '' })
    const { ok } = await fsRuntime({ roots: [root] })
    expect((await ok('glob', { pattern: '*.ts', path: 'src' })).paths).toEqual(['src/a.ts'])
  })

  it('caps results but reports the true total and truncated', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, '']),
    )
    const root = await tree(files)
    const { call, ctx, text } = await fsRuntime({ roots: [root], maxGlobResults: 5 })
    const result = await call('glob', { pattern: '*.txt' })
    if (result.isError) throw new Error(result.error.message)
    expect(result.value).toMatchObject({ total: 30, truncated: true })
    expect((result.value as { paths: string[] }).paths).toHaveLength(5)
    expect(text(result)).toContain('(showing 5 of 30 matching files')
    expect(ctx.tools.get('glob')!.presentResult!({ pattern: '*.txt' }, result, result.meta)).toMatchObject({
      truncated: true,
      total: 30,
    })
  })

  it('rejects patterns that leave the search directory, and a file as path', async () => {
    const root = await tree({ 'a.txt': '' })
    const { fails } = await fsRuntime({ roots: [root] })
    await fails('glob', { pattern: '../**' }, 'INVALID_PATTERN')
    await fails('glob', { pattern: '/etc/*' }, 'INVALID_PATTERN')
    await fails('glob', { pattern: '*', path: 'a.txt' }, 'WRONG_FILE_TYPE')
    await fails('glob', { pattern: '*', path: 'missing' }, 'NOT_FOUND')
  })

  it('says so when nothing matches', async () => {
    const root = await tree({ 'a.txt': '' })
    const { call, text } = await fsRuntime({ roots: [root] })
    expect(text(await call('glob', { pattern: '*.rs' }))).toBe('No files match *.rs in .')
  })
})

describe('grep', () => {
  it('returns matching lines grouped by file and presents a matches card', async () => {
    const root = await tree({
      'src/a.ts': 'import x\nconst TODO = 1\n// todo later\n',
      'src/b.ts': 'nothing here\n',
      'notes.md': 'TODO: write docs\r\n',
      'node_modules/dep/index.js': 'TODO in a dependency\n',
    })
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const args = { pattern: 'TODO' }
    const result = await call('grep', args)
    if (result.isError) throw new Error(result.error.message)
    expect(result.value).toEqual({
      pattern: 'TODO',
      path: '.',
      files: [
        { path: 'notes.md', matches: [{ number: 1, text: 'TODO: write docs' }] },
        { path: 'src/a.ts', matches: [{ number: 2, text: 'const TODO = 1' }] },
      ],
      total: 2,
      truncated: false,
      filesSearched: 3,
      filesSkipped: 0,
    })
    expect(text(result)).toBe('notes.md\n1:TODO: write docs\n\nsrc/a.ts\n2:const TODO = 1')
    expect(ctx.tools.get('grep')!.presentResult!(args, result, result.meta)).toEqual({
      card: 'search',
      shape: 'matches',
      title: '/TODO/',
      truncated: false,
      total: 2,
      files: (result.value as { files: unknown }).files,
    })
  })

  it('supports case_insensitive, a glob filter matched on names, and a single file as path', async () => {
    const root = await tree({ 'src/a.ts': 'Foo\nfoo\n', 'src/b.js': 'foo\n' })
    const { ok } = await fsRuntime({ roots: [root] })
    const insensitive = await ok('grep', { pattern: 'foo', case_insensitive: true, glob: '*.ts' })
    expect(insensitive.files).toEqual([
      {
        path: 'src/a.ts',
        matches: [
          { number: 1, text: 'Foo' },
          { number: 2, text: 'foo' },
        ],
      },
    ])
    const single = await ok('grep', { pattern: '^foo$', path: 'src/b.js' })
    expect(single).toMatchObject({ path: 'src/b.js', total: 1, filesSearched: 1 })
  })

  it('caps matches, keeps counting, and marks the result truncated', async () => {
    const root = await tree({ 'a.txt': 'hit\n'.repeat(10), 'b.txt': 'hit\n'.repeat(10) })
    const { call, text } = await fsRuntime({ roots: [root], maxGrepMatches: 12 })
    const result = await call('grep', { pattern: 'hit' })
    if (result.isError) throw new Error(result.error.message)
    const value = result.value as { files: { matches: unknown[] }[]; total: number; truncated: boolean }
    expect(value.files.map((file) => file.matches.length)).toEqual([10, 2])
    expect(value).toMatchObject({ total: 20, truncated: true })
    expect(text(result)).toContain('(showing 12 of 20 matching lines')
  })

  it('skips binary and oversized files and counts them', async () => {
    const root = await tree({
      'bin.dat': Buffer.from([0x68, 0x69, 0, 0x68, 0x69]),
      'big.txt': 'hi\n'.repeat(100),
      'ok.txt': 'hi\n',
    })
    const { ok } = await fsRuntime({ roots: [root], maxGrepFileBytes: 50 })
    expect(await ok('grep', { pattern: 'hi' })).toMatchObject({ total: 1, filesSearched: 1, filesSkipped: 2 })
  })

  it('rejects an invalid regular expression', async () => {
    const root = await tree({ 'a.txt': '' })
    const { fails } = await fsRuntime({ roots: [root] })
    expect(await fails('grep', { pattern: '([a-' }, 'INVALID_PATTERN')).toMatch(/invalid regular expression/)
  })
})
