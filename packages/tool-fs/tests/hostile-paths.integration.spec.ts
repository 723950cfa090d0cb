import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

// Paths the kernel refuses (too long, a component too long) must be a clear INVALID_PATH for
// every tool, never a raw errno surfacing as a generic tool failure.

const LONG_NAME = 'n'.repeat(300)
const LONG_PATH = Array.from({ length: 40 }, () => 'd'.repeat(200)).join('/')

const calls = (bad: string) =>
  [
    ['read', { file_path: bad }],
    ['write', { file_path: bad, content: 'x' }],
    ['edit', { file_path: bad, old_string: 'a', new_string: 'b' }],
    ['glob', { pattern: '*', path: bad }],
    ['grep', { pattern: 'a', path: bad }],
  ] as const

describe('hostile paths', () => {
  it.each([
    ['a name over 255 bytes', LONG_NAME, /component is too long/],
    ['a path over 4096 bytes', LONG_PATH, /path is too long/],
    ['a multi-byte name over 255 bytes', 'é'.repeat(200), /component is too long/],
  ])('%s is INVALID_PATH for every tool, with a bounded message', async (_name, bad, message) => {
    const root = await tempDir()
    const { call } = await fsRuntime({ roots: [root] })
    for (const [name, args] of calls(bad)) {
      const result = await call(name, args)
      expect(result.isError, name).toBe(true)
      if (!result.isError) continue
      expect(result.error.info?.code, name).toBe('INVALID_PATH')
      expect(result.error.message).toMatch(message)
      expect(result.error.message.length).toBeLessThan(200)
    }
    expect(await fs.readdir(root)).toEqual([])
  })

  it.each([
    ['ASCII', 'n'.repeat(255)],
    ['4-byte characters', '😀'.repeat(63)],
  ])(
    'names of up to 255 bytes (%s) can be written, edited and read (the temp name stays within NAME_MAX)',
    async (_kind, name) => {
      const root = await tempDir()
      const { ok } = await fsRuntime({ roots: [root] })
      await ok('write', { file_path: name, content: 'x\n' })
      await ok('write', { file_path: name, content: 'y\n' })
      await ok('edit', { file_path: name, old_string: 'y', new_string: 'z' })
      expect((await ok('read', { file_path: name })).lines).toEqual([{ number: 1, text: 'z' }])
      expect(await fs.readdir(root)).toEqual([name])
    },
  )
})
