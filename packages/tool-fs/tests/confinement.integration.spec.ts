import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

async function workspace() {
  const base = await tempDir()
  const root = path.join(base, 'root')
  const outside = path.join(base, 'outside')
  await fs.mkdir(root)
  await fs.mkdir(outside)
  await fs.writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET\n')
  await fs.writeFile(path.join(root, 'inside.txt'), 'inside\n')
  return { root, outside, ...(await fsRuntime({ roots: [root] })) }
}

describe('path confinement through the runtime', () => {
  it('.. cannot escape, for any tool', async () => {
    const { fails } = await workspace()
    await fails('read', { file_path: '../outside/secret.txt' }, 'OUTSIDE_ROOTS')
    await fails('write', { file_path: '../outside/new.txt', content: 'x' }, 'OUTSIDE_ROOTS')
    await fails(
      'edit',
      { file_path: '../outside/secret.txt', old_string: 'TOP', new_string: 'NO' },
      'OUTSIDE_ROOTS',
    )
    await fails('glob', { pattern: '*', path: '..' }, 'OUTSIDE_ROOTS')
    await fails('grep', { pattern: 'SECRET', path: '../outside' }, 'OUTSIDE_ROOTS')
  })

  it('absolute paths outside the roots are refused', async () => {
    const { outside, fails } = await workspace()
    await fails('read', { file_path: path.join(outside, 'secret.txt') }, 'OUTSIDE_ROOTS')
    await fails('write', { file_path: path.join(outside, 'evil.txt'), content: 'x' }, 'OUTSIDE_ROOTS')
    await expect(fs.access(path.join(outside, 'evil.txt'))).rejects.toThrow()
  })

  it('a symlink pointing out is refused for read, write and edit', async () => {
    const { root, outside, fails } = await workspace()
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'))
    expect(await fails('read', { file_path: 'link.txt' }, 'OUTSIDE_ROOTS')).toMatch(
      /outside the workspace roots/,
    )
    await fails('write', { file_path: 'link.txt', content: 'pwned' }, 'OUTSIDE_ROOTS')
    await fails('edit', { file_path: 'link.txt', old_string: 'TOP', new_string: 'NO' }, 'OUTSIDE_ROOTS')
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n')
  })

  it('a symlinked parent directory pointing out is refused, including for new files', async () => {
    const { root, outside, fails } = await workspace()
    await fs.symlink(outside, path.join(root, 'escape'))
    await fails('read', { file_path: 'escape/secret.txt' }, 'OUTSIDE_ROOTS')
    await fails('write', { file_path: 'escape/new-dir/new.txt', content: 'x' }, 'OUTSIDE_ROOTS')
    await expect(fs.access(path.join(outside, 'new-dir'))).rejects.toThrow()
  })

  it('a dangling symlink is not written through', async () => {
    const { root, outside, fails } = await workspace()
    await fs.symlink(path.join(outside, 'planted.txt'), path.join(root, 'dangling.txt'))
    await fails('write', { file_path: 'dangling.txt', content: 'x' }, 'INVALID_PATH')
    await expect(fs.access(path.join(outside, 'planted.txt'))).rejects.toThrow()
  })

  it('symlinks that stay inside the roots work and writes replace the link target path', async () => {
    const { root, ok } = await workspace()
    await fs.symlink(path.join(root, 'inside.txt'), path.join(root, 'alias.txt'))
    expect((await ok('read', { file_path: 'alias.txt' })).path).toBe('inside.txt')
    await ok('edit', { file_path: 'alias.txt', old_string: 'inside', new_string: 'edited' })
    expect(await fs.readFile(path.join(root, 'inside.txt'), 'utf8')).toBe('edited\n')
    expect((await fs.lstat(path.join(root, 'alias.txt'))).isSymbolicLink()).toBe(true)
  })

  it('glob and grep never descend through symlinks that leave the roots', async () => {
    const { root, outside, ok } = await workspace()
    await fs.symlink(outside, path.join(root, 'escape-dir'))
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'escape-file.txt'))
    await fs.symlink(path.join(root, 'inside.txt'), path.join(root, 'inner-link.txt'))
    const globbed = await ok('glob', { pattern: '**/*' })
    expect(globbed.paths).toEqual(['inner-link.txt', 'inside.txt'])
    expect((await ok('grep', { pattern: 'SECRET' })).total).toBe(0)
    expect(
      (await ok('grep', { pattern: 'inside' })).files.map((file: { path: string }) => file.path),
    ).toEqual(['inner-link.txt', 'inside.txt'])
  })

  it('a second root is usable through absolute paths', async () => {
    const { root, outside } = await workspace()
    const { ok } = await fsRuntime({ roots: [root, outside] })
    expect((await ok('read', { file_path: path.join(outside, 'secret.txt') })).path).toBe(
      path.join(outside, 'secret.txt'),
    )
  })
})
