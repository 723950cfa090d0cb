import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PathGuard } from '../src/path-guard'
import { tempDir } from './fixtures/temp-dir'

async function setup() {
  const base = await tempDir()
  const root = path.join(base, 'root')
  const outside = path.join(base, 'outside')
  await fs.mkdir(root)
  await fs.mkdir(outside)
  await fs.writeFile(path.join(root, 'inside.txt'), 'in\n')
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret\n')
  return { root, outside, guard: new PathGuard([root]) }
}

describe('PathGuard.resolve', () => {
  it('resolves relative paths against the first root', async () => {
    const { root, guard } = await setup()
    const resolved = await guard.resolve('inside.txt')
    expect(resolved).toMatchObject({ real: path.join(root, 'inside.txt'), exists: true, root })
    expect(guard.display(resolved.real)).toBe('inside.txt')
  })

  it('rejects .. escapes', async () => {
    const { guard } = await setup()
    await expect(guard.resolve('../outside/secret.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
    await expect(guard.resolve('sub/../../outside/new.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
  })

  it('rejects absolute paths outside every root', async () => {
    const { outside, guard } = await setup()
    await expect(guard.resolve(path.join(outside, 'secret.txt'))).rejects.toMatchObject({
      code: 'OUTSIDE_ROOTS',
    })
    await expect(guard.resolve('/etc/passwd')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
  })

  it('rejects a symlink inside the root pointing out', async () => {
    const { root, outside, guard } = await setup()
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'))
    await expect(guard.resolve('link.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
  })

  it('rejects a new file below a symlinked parent directory that points out', async () => {
    const { root, outside, guard } = await setup()
    await fs.symlink(outside, path.join(root, 'escape'))
    await expect(guard.resolve('escape/new/file.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
    await expect(guard.resolve('escape/secret.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS' })
  })

  it('accepts symlinks that stay inside the root and reports the real path', async () => {
    const { root, guard } = await setup()
    await fs.mkdir(path.join(root, 'real-dir'))
    await fs.symlink(path.join(root, 'real-dir'), path.join(root, 'alias'))
    const resolved = await guard.resolve('alias/new.txt')
    expect(resolved).toMatchObject({ real: path.join(root, 'real-dir', 'new.txt'), exists: false })
  })

  it('refuses a dangling symlink, whose target cannot be proven inside', async () => {
    const { root, outside, guard } = await setup()
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'))
    await expect(guard.resolve('dangling')).rejects.toMatchObject({ code: 'INVALID_PATH' })
    await expect(guard.resolve('dangling/child.txt')).rejects.toMatchObject({ code: 'INVALID_PATH' })
  })

  it('refuses empty paths and NUL bytes', async () => {
    const { guard } = await setup()
    await expect(guard.resolve('')).rejects.toMatchObject({ code: 'INVALID_PATH' })
    await expect(guard.resolve('a\0b')).rejects.toMatchObject({ code: 'INVALID_PATH' })
  })

  it('accepts paths in a second root and shows them absolute', async () => {
    const { outside, root } = await setup()
    const guard = new PathGuard([root, outside])
    const resolved = await guard.resolve(path.join(outside, 'secret.txt'))
    expect(resolved.root).toBe(outside)
    expect(guard.display(resolved.real)).toBe(path.join(outside, 'secret.txt'))
  })

  it('a root that does not exist is a config error', () => {
    expect(() => new PathGuard(['/definitely/not/here'])).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
  })

  it('a root that is itself a symlink is canonicalised', async () => {
    const { root } = await setup()
    const alias = `${root}-alias`
    await fs.symlink(root, alias)
    const guard = new PathGuard([alias])
    expect(guard.roots).toEqual([root])
    await expect(guard.resolve(path.join(alias, 'inside.txt'))).resolves.toMatchObject({ exists: true })
  })
})

describe('PathGuard.openFile (check-then-use)', () => {
  it('detects a file swapped for a symlink between resolve and open', async () => {
    const { root, outside, guard } = await setup()
    const resolved = await guard.resolve('inside.txt')
    await fs.rm(path.join(root, 'inside.txt'))
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'inside.txt'))
    await expect(guard.openFile(resolved)).rejects.toMatchObject({ code: 'PATH_CHANGED' })
  })

  it('detects a parent directory swapped for a symlink between resolve and open', async () => {
    const { root, outside, guard } = await setup()
    await fs.mkdir(path.join(root, 'dir'))
    await fs.writeFile(path.join(root, 'dir', 'secret.txt'), 'inside copy\n')
    const resolved = await guard.resolve('dir/secret.txt')
    await fs.rm(path.join(root, 'dir'), { recursive: true })
    await fs.symlink(outside, path.join(root, 'dir'))
    await expect(guard.openFile(resolved)).rejects.toMatchObject({ code: 'PATH_CHANGED' })
  })

  it('opens an unchanged regular file', async () => {
    const { guard } = await setup()
    const { handle, stat } = await guard.openFile(await guard.resolve('inside.txt'))
    expect(stat.isFile()).toBe(true)
    expect(await handle.readFile('utf8')).toBe('in\n')
    await handle.close()
  })

  it('refuses directories and missing files', async () => {
    const { root, guard } = await setup()
    await fs.mkdir(path.join(root, 'dir'))
    await expect(guard.openFile(await guard.resolve('dir'))).rejects.toMatchObject({
      code: 'WRONG_FILE_TYPE',
    })
    await expect(guard.openFile(await guard.resolve('missing.txt'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})
