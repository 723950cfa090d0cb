import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../src/atomic-write'
import { tempDir } from './fixtures/temp-dir'

describe('writeFileAtomic', () => {
  it('replaces content and leaves no temp file', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'f.txt')
    await fs.writeFile(file, 'old')
    await writeFileAtomic(file, 'new')
    expect(await fs.readFile(file, 'utf8')).toBe('new')
    expect(await fs.readdir(dir)).toEqual(['f.txt'])
  })

  it('a failure before commit leaves the original intact and removes the temp file', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'f.txt')
    await fs.writeFile(file, 'original')
    let tempSeen = ''
    await expect(
      writeFileAtomic(file, 'replacement', {
        beforeCommit: async (temp) => {
          tempSeen = await fs.readFile(temp, 'utf8')
          throw new Error('disk on fire')
        },
      }),
    ).rejects.toThrow('disk on fire')
    expect(tempSeen).toBe('replacement')
    expect(await fs.readFile(file, 'utf8')).toBe('original')
    expect(await fs.readdir(dir)).toEqual(['f.txt'])
  })

  it('applies the exact mode given, regardless of umask', async () => {
    const dir = await tempDir()
    const file = path.join(dir, 'run.sh')
    await writeFileAtomic(file, '#!/bin/sh\n', { mode: 0o751 })
    expect((await fs.stat(file)).mode & 0o7777).toBe(0o751)
  })

  it('replaces a final-component symlink instead of writing through it', async () => {
    const dir = await tempDir()
    const target = path.join(dir, 'target.txt')
    const link = path.join(dir, 'link.txt')
    await fs.writeFile(target, 'target')
    await fs.symlink(target, link)
    await writeFileAtomic(link, 'new')
    expect(await fs.readFile(target, 'utf8')).toBe('target')
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(false)
  })
})
