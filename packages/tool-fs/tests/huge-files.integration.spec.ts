import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readBounded } from '../src/internal/read-bounded'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

// A sparse file costs nothing to make but reads as gigabytes of zeros after its text: every
// tool must stay bounded in the bytes it reads (time) and keeps (memory), whatever its size.

const GiB = 1024 ** 3
const TEXT = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

/** A file of TEXT followed by a hole up to `size` bytes. */
async function sparseFile(dir: string, name: string, size: number): Promise<string> {
  const file = path.join(dir, name)
  await fs.writeFile(file, TEXT)
  await fs.truncate(file, size)
  return file
}

describe('huge and sparse files', () => {
  it('read of a 64 GiB sparse file stops at maxReadScanBytes and says the count is partial', async () => {
    const root = await tempDir()
    await sparseFile(root, 'sparse.txt', 64 * GiB)
    const { ok, call, text } = await fsRuntime({ roots: [root] })
    const value = await ok('read', { file_path: 'sparse.txt', limit: 3 })
    expect(value).toMatchObject({ totalLines: 1000, truncated: true, stoppedAt: 'maxReadScanBytes' })
    expect(value.lines.map((line: { text: string }) => line.text)).toEqual(['line 1', 'line 2', 'line 3'])
    expect(text(await call('read', { file_path: 'sparse.txt', limit: 3 }))).toContain(
      'of at least 1000 (reading stopped at the maxReadScanBytes bound)',
    )
  }, 60_000)

  it('the scan bound covers reaching the window too, and a file that ends at the bound is complete', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'long.txt'), TEXT)
    const exact = Buffer.byteLength(TEXT)
    const bounded = await fsRuntime({ roots: [root], maxReadScanBytes: 100 })
    const start = await bounded.ok('read', { file_path: 'long.txt' })
    // Only the lines wholly inside the first 100 bytes are shown, and counted.
    expect(start.stoppedAt).toBe('maxReadScanBytes')
    expect(start.lines.length).toBe(start.totalLines)
    expect(start.lines.at(-1).text).toBe(`line ${start.totalLines}`)
    const far = await bounded.call('read', { file_path: 'long.txt', offset: 900 })
    expect(far.isError).toBe(false)
    expect(bounded.text(far)).toMatch(/offset 900 lies beyond the part of long\.txt read/)
    const whole = await fsRuntime({ roots: [root], maxReadScanBytes: exact })
    const value = await whole.ok('read', { file_path: 'long.txt', offset: 999 })
    expect(value).toEqual({
      path: 'long.txt',
      offset: 999,
      lines: [
        { number: 999, text: 'line 999' },
        { number: 1000, text: 'line 1000' },
      ],
      totalLines: 1000,
      truncated: false,
    })
  })

  it('a single line longer than the scan bound is still shown, cut and marked', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'one.txt'), 'x'.repeat(10_000))
    const { ok } = await fsRuntime({ roots: [root], maxReadScanBytes: 4096, maxLineLength: 10 })
    const value = await ok('read', { file_path: 'one.txt' })
    expect(value.stoppedAt).toBe('maxReadScanBytes')
    expect(value.lines).toHaveLength(1)
    expect(value.lines[0].text).toMatch(/^x{10}… \[line truncated/)
  })

  it('edit refuses a file above maxEditBytes (FILE_TOO_LARGE) without loading it, leaving it intact', async () => {
    const root = await tempDir()
    const file = await sparseFile(root, 'big.txt', 2 * GiB)
    const { fails } = await fsRuntime({ roots: [root] })
    const message = await fails(
      'edit',
      { file_path: 'big.txt', old_string: 'line 5\n', new_string: 'x' },
      'FILE_TOO_LARGE',
    )
    expect(message).toContain('maxEditBytes')
    expect((await fs.stat(file)).size).toBe(2 * GiB)
    const small = await fsRuntime({ roots: [root], maxEditBytes: 100 })
    await fs.writeFile(path.join(root, 'small.txt'), TEXT)
    await small.fails(
      'edit',
      { file_path: 'small.txt', old_string: 'line 5\n', new_string: 'x' },
      'FILE_TOO_LARGE',
    )
  }, 60_000)

  it('write over a 64 GiB sparse file counts its old lines only up to the scan bound', async () => {
    const root = await tempDir()
    const file = await sparseFile(root, 'sparse.txt', 64 * GiB)
    const { ok } = await fsRuntime({ roots: [root] })
    const value = await ok('write', { file_path: 'sparse.txt', content: 'new\n' })
    expect(value.diff).toMatchObject({ added: 1, removed: 1000, omitted: true })
    expect(await fs.readFile(file, 'utf8')).toBe('new\n')
  }, 60_000)

  it('readBounded never returns more than its limit, whatever the file holds', async () => {
    const root = await tempDir()
    const file = path.join(root, 'f.txt')
    await fs.writeFile(file, 'x'.repeat(200_000))
    const handle = await fs.open(file)
    try {
      expect(await readBounded(handle, 199_999)).toBeUndefined()
      expect((await readBounded(handle, 200_000))?.length).toBe(200_000)
      expect((await readBounded(handle, 1 << 20))?.length).toBe(200_000)
    } finally {
      await handle.close()
    }
  })
})

describe('edit amplification', () => {
  it('replace_all over more than 10,000 occurrences is EDIT_TOO_LARGE before any work, file intact', async () => {
    const root = await tempDir()
    const file = path.join(root, 'many.txt')
    await fs.writeFile(file, 'a'.repeat(10_001))
    const { fails, ok } = await fsRuntime({ roots: [root] })
    const message = await fails(
      'edit',
      { file_path: 'many.txt', old_string: 'a', new_string: 'b', replace_all: true },
      'EDIT_TOO_LARGE',
    )
    expect(message).toMatch(/occurs more than 10000 times/)
    expect(await fs.readFile(file, 'utf8')).toBe('a'.repeat(10_001))
    await fs.writeFile(file, 'a'.repeat(10_000))
    expect(
      await ok('edit', { file_path: 'many.txt', old_string: 'a', new_string: 'b', replace_all: true }),
    ).toMatchObject({
      replacements: 10_000,
    })
  })

  it('an edit whose result would exceed maxEditBytes is EDIT_TOO_LARGE, whatever the replacement count', async () => {
    const root = await tempDir()
    const file = path.join(root, 'grow.txt')
    await fs.writeFile(file, 'x'.repeat(1000))
    const { fails } = await fsRuntime({ roots: [root], maxEditBytes: 100_000 })
    await fails(
      'edit',
      { file_path: 'grow.txt', old_string: 'x', new_string: 'y'.repeat(200), replace_all: true },
      'EDIT_TOO_LARGE',
    )
    await fails(
      'edit',
      { file_path: 'grow.txt', old_string: 'x'.repeat(1000), new_string: 'y'.repeat(100_001) },
      'EDIT_TOO_LARGE',
    )
    expect(await fs.readFile(file, 'utf8')).toBe('x'.repeat(1000))
  })
})
