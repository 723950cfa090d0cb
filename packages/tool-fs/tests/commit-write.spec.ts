import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { commitWrite } from '../src/commit-write'
import { resolveFsToolsConfig } from '../src/config'
import { createFsToolContext } from '../src/fs-tool-context'
import { tempDir } from './fixtures/temp-dir'

async function setup() {
  const base = await tempDir()
  const root = path.join(base, 'root')
  const outside = path.join(base, 'outside')
  await fs.mkdir(path.join(root, 'dir'), { recursive: true })
  await fs.mkdir(outside)
  return { root, outside, context: createFsToolContext(resolveFsToolsConfig({ roots: [root] })) }
}

describe('commitWrite (check-then-use)', () => {
  it('refuses when the parent directory was swapped for a symlink after the check, leaving nothing behind', async () => {
    const { root, outside, context } = await setup()
    const resolved = await context.guard.resolve('dir/file.txt')
    await fs.rm(path.join(root, 'dir'), { recursive: true })
    await fs.symlink(outside, path.join(root, 'dir'))
    await expect(commitWrite(context, undefined, resolved, 'payload')).rejects.toMatchObject({
      code: 'PATH_CHANGED',
    })
    expect(await fs.readdir(outside)).toEqual([])
  })

  it('refuses when the file changed since its old content was read', async () => {
    const { root, context } = await setup()
    const file = path.join(root, 'dir', 'file.txt')
    await fs.writeFile(file, 'v1')
    const resolved = await context.guard.resolve('dir/file.txt')
    const expected = await fs.stat(file)
    await fs.writeFile(file, 'v2 from someone else')
    await expect(commitWrite(context, undefined, resolved, 'mine', { expected })).rejects.toMatchObject({
      code: 'PATH_CHANGED',
    })
    expect(await fs.readFile(file, 'utf8')).toBe('v2 from someone else')
    expect(await fs.readdir(path.join(root, 'dir'))).toEqual(['file.txt'])
  })

  it('writes over a file swapped for an outward symlink by replacing the link, never the outside file', async () => {
    const { root, outside, context } = await setup()
    const file = path.join(root, 'dir', 'file.txt')
    await fs.writeFile(file, 'v1')
    await fs.writeFile(path.join(outside, 'target.txt'), 'outside')
    const resolved = await context.guard.resolve('dir/file.txt')
    await fs.rm(file)
    await fs.symlink(path.join(outside, 'target.txt'), file)
    await commitWrite(context, undefined, resolved, 'new')
    expect(await fs.readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('outside')
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(false)
  })
})
