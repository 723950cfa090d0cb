import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readGrepFile } from '../src/grep-files'
import { PathGuard } from '../src/path-guard'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

// A directory of the tree swapped for a symlink to the outside between grep's walk and its
// read: the file opened is then outside the roots, and its content must never be searched.

async function layout() {
  const root = await tempDir()
  const outside = await tempDir('tool-fs-outside-')
  await fs.mkdir(path.join(root, 'sub'))
  // Many files widen the window between listing the directory and reading its files.
  for (let index = 0; index < 64; index++) {
    await fs.writeFile(path.join(outside, `secret-${index}.txt`), 'TOPSECRET\n')
    await fs.writeFile(path.join(root, 'sub', `secret-${index}.txt`), 'harmless\n')
  }
  return { root, outside }
}

describe('grep reads only files still inside the roots', () => {
  it('a file whose parent directory became a symlink to the outside is skipped unread', async () => {
    const { root, outside } = await layout()
    const guard = new PathGuard([root])
    const walked = path.join(root, 'sub', 'secret-0.txt')
    expect(await readGrepFile(walked, 1 << 20, guard)).toMatchObject({ status: 'read' })
    await fs.rename(path.join(root, 'sub'), path.join(root, 'sub-was'))
    await fs.symlink(outside, path.join(root, 'sub'))
    expect(await readGrepFile(walked, 1 << 20, guard)).toEqual({ status: 'skipped', reason: 'changed' })
  })

  it('under a concurrent swapper flipping a directory to an outward symlink, grep never finds outside text', async () => {
    const { root, outside } = await layout()
    await fs.symlink(outside, path.join(root, '.link'))
    // A separate process swaps root/sub between the real directory and the outward link.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const j = (n) => require('node:path').join(${JSON.stringify(root)}, n)
         for (;;) { fs.renameSync(j('sub'), j('.real')); fs.renameSync(j('.link'), j('sub'))
                    fs.renameSync(j('sub'), j('.link')); fs.renameSync(j('.real'), j('sub')) }`,
      ],
      { stdio: 'ignore' },
    )
    try {
      const { call } = await fsRuntime({ roots: [root] })
      for (let round = 0; round < 40; round++) {
        const result = await call('grep', { pattern: 'TOP' })
        expect(result.isError).toBe(false)
        if (!result.isError) expect(result.value).toMatchObject({ total: 0, files: [] })
      }
    } finally {
      swapper.kill('SIGKILL')
    }
  }, 30_000)
})
