import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

describe('write', () => {
  it('creates a file with its parent directories and presents a diff card', async () => {
    const root = await tempDir()
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const args = { file_path: 'deep/er/new.txt', content: 'hello\nworld\n' }
    const result = await call('write', args)
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(await fs.readFile(path.join(root, 'deep/er/new.txt'), 'utf8')).toBe('hello\nworld\n')
    expect(result.value).toMatchObject({ path: 'deep/er/new.txt', created: true, bytes: 12 })
    expect(text(result)).toBe('Created deep/er/new.txt (2 lines, 12 bytes)')
    const view = ctx.tools.get('write')!.presentResult!(args, result, result.meta)
    expect(view).toEqual({
      card: 'diff',
      title: 'Created deep/er/new.txt',
      diffs: [
        {
          path: 'deep/er/new.txt',
          patch: '--- deep/er/new.txt\n+++ deep/er/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n',
          added: 2,
          removed: 0,
        },
      ],
    })
  })

  it('overwrites atomically, keeps the file mode and reports the diff', async () => {
    const root = await tempDir()
    const file = path.join(root, 'run.sh')
    await fs.writeFile(file, '#!/bin/sh\necho old\n')
    await fs.chmod(file, 0o750)
    const { ok } = await fsRuntime({ roots: [root] })
    const value = await ok('write', { file_path: 'run.sh', content: '#!/bin/sh\necho new\n' })
    expect(value).toMatchObject({ created: false, diff: { added: 1, removed: 1, omitted: false } })
    expect(value.diff.patch).toContain('-echo old\n+echo new')
    expect((await fs.stat(file)).mode & 0o7777).toBe(0o750)
    expect(await fs.readdir(root)).toEqual(['run.sh'])
  })

  it('a failing write leaves the original intact and no temp file behind', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'keep.txt'), 'original')
    await fs.writeFile(path.join(root, 'blocker'), 'a file, not a directory')
    const { fails } = await fsRuntime({ roots: [root] })
    await fails('write', { file_path: 'keep.txt/child.txt', content: 'x' }, 'WRONG_FILE_TYPE')
    await fails('write', { file_path: 'blocker/sub/file.txt', content: 'x' }, 'WRONG_FILE_TYPE')
    expect(await fs.readFile(path.join(root, 'keep.txt'), 'utf8')).toBe('original')
    expect((await fs.readdir(root)).sort()).toEqual(['blocker', 'keep.txt'])
  })

  it('refuses to replace a directory', async () => {
    const root = await tempDir()
    await fs.mkdir(path.join(root, 'dir'))
    const { fails } = await fsRuntime({ roots: [root] })
    await fails('write', { file_path: 'dir', content: 'x' }, 'WRONG_FILE_TYPE')
  })

  it('reports huge rewrites without hunks', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'big.txt'), 'a\n'.repeat(1000))
    const { ok } = await fsRuntime({ roots: [root], maxDiffBytes: 100 })
    const value = await ok('write', { file_path: 'big.txt', content: 'b\n'.repeat(10) })
    expect(value.diff).toEqual({
      patch: '--- big.txt\n+++ big.txt\n',
      added: 10,
      removed: 1000,
      omitted: true,
    })
  })
})

describe('edit', () => {
  it('replaces a unique string, renders the patch and presents diff cards', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.js'), 'let x = 1\nlet y = 2\n')
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const args = { file_path: 'a.js', old_string: 'let y = 2', new_string: 'let y = 3' }
    const result = await call('edit', args)
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(await fs.readFile(path.join(root, 'a.js'), 'utf8')).toBe('let x = 1\nlet y = 3\n')
    expect(result.value).toMatchObject({ path: 'a.js', replacements: 1, diff: { added: 1, removed: 1 } })
    expect(text(result)).toBe(
      'Edited a.js: replaced 1 occurrence (+1 -1 lines)\n\n--- a.js\n+++ a.js\n@@ -1,2 +1,2 @@\n let x = 1\n-let y = 2\n+let y = 3\n',
    )
    const definition = ctx.tools.get('edit')!
    expect(definition.presentResult!(args, result, result.meta)).toMatchObject({
      card: 'diff',
      title: 'Edited a.js',
      diffs: [{ path: 'a.js', added: 1, removed: 1 }],
    })
    expect(definition.presentCall!(args)).toMatchObject({
      card: 'diff',
      title: 'Edit a.js',
      diffs: [{ added: 1, removed: 1 }],
    })
  })

  it('requires uniqueness unless replace_all, and counts replacements', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'foo bar foo baz foo')
    const { ok, fails } = await fsRuntime({ roots: [root] })
    expect(
      await fails('edit', { file_path: 'a.txt', old_string: 'foo', new_string: 'qux' }, 'EDIT_NOT_UNIQUE'),
    ).toMatch(/occurs 3 times/)
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('foo bar foo baz foo')
    const value = await ok('edit', {
      file_path: 'a.txt',
      old_string: 'foo',
      new_string: 'qux',
      replace_all: true,
    })
    expect(value.replacements).toBe(3)
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('qux bar qux baz qux')
  })

  it('says clearly when old_string is not found, and when the file does not exist', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'hello')
    const { fails } = await fsRuntime({ roots: [root] })
    expect(
      await fails('edit', { file_path: 'a.txt', old_string: 'bye', new_string: 'x' }, 'EDIT_NOT_FOUND'),
    ).toMatch(/old_string was not found in a\.txt/)
    expect(
      await fails('edit', { file_path: 'b.txt', old_string: 'a', new_string: 'b' }, 'NOT_FOUND'),
    ).toMatch(/use write/)
  })

  it('preserves CRLF line endings, a BOM and the file mode', async () => {
    const root = await tempDir()
    const file = path.join(root, 'win.txt')
    await fs.writeFile(file, '\uFEFFfirst\r\nsecond\r\nthird\r\n')
    await fs.chmod(file, 0o640)
    const { ok } = await fsRuntime({ roots: [root] })
    await ok('edit', {
      file_path: 'win.txt',
      old_string: 'first\nsecond',
      new_string: 'one\ntwo\nthree-and-a-half',
    })
    expect(await fs.readFile(file, 'utf8')).toBe('\uFEFFone\r\ntwo\r\nthree-and-a-half\r\nthird\r\n')
    expect((await fs.stat(file)).mode & 0o7777).toBe(0o640)
  })

  it('refuses binary files', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'bin'), Buffer.from([1, 0, 2]))
    const { fails } = await fsRuntime({ roots: [root] })
    await fails('edit', { file_path: 'bin', old_string: 'a', new_string: 'b' }, 'BINARY_FILE')
  })
})

describe('read-before-write policy', () => {
  it('is off by default', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'a')
    const { ok } = await fsRuntime({ roots: [root] })
    await ok('write', { file_path: 'a.txt', content: 'b' })
  })

  it('refuses an unread existing file, allows new files, and allows after a read', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'alpha\n')
    const { ok, fails } = await fsRuntime({ roots: [root], requireReadBeforeWrite: true })
    expect(await fails('write', { file_path: 'a.txt', content: 'x' }, 'NOT_READ')).toMatch(
      /has not been read/,
    )
    await fails('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, 'NOT_READ')
    await ok('write', { file_path: 'new.txt', content: 'fresh' })
    await ok('read', { file_path: 'a.txt' })
    await ok('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' })
    // The tool's own write counts as seen: a follow-up edit needs no new read.
    await ok('edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' })
    expect(await fs.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('gamma\n')
  })

  it('refuses a file changed since it was read', async () => {
    const root = await tempDir()
    const file = path.join(root, 'a.txt')
    await fs.writeFile(file, 'one\n')
    const { ok, fails } = await fsRuntime({ roots: [root], requireReadBeforeWrite: true })
    await ok('read', { file_path: 'a.txt' })
    await fs.writeFile(file, 'one\ntwo (someone else)\n')
    expect(
      await fails('edit', { file_path: 'a.txt', old_string: 'one', new_string: '1' }, 'NOT_READ'),
    ).toMatch(/changed since it was last read/)
  })

  it('tracks reads per agent', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.txt'), 'x')
    const { ok, fails } = await fsRuntime({ roots: [root], requireReadBeforeWrite: true })
    await ok('read', { file_path: 'a.txt' })
    await fails('write', { file_path: 'a.txt', content: 'y' }, 'NOT_READ', 'other-agent')
  })
})
