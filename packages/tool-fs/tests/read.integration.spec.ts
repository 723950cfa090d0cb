import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

describe('read', () => {
  it('returns a numbered window, renders it cat -n style and presents a read card', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'a.ts'), 'const a = 1\nconst b = 2\nconst c = 3\n')
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const result = await call('read', { file_path: 'a.ts', offset: 2, limit: 1 })
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(result.value).toEqual({
      path: 'a.ts',
      offset: 2,
      lines: [{ number: 2, text: 'const b = 2' }],
      totalLines: 3,
      truncated: true,
    })
    expect(text(result)).toBe(
      '     2\tconst b = 2\n\n(showing lines 2-2 of 3; call read with offset=3 to continue)',
    )
    const definition = ctx.tools.get('read')!
    const args = { file_path: 'a.ts', offset: 2, limit: 1 }
    expect(definition.presentResult!(args, result, result.meta)).toEqual({
      card: 'read',
      title: 'a.ts',
      path: 'a.ts',
      offset: 2,
      lines: [{ number: 2, text: 'const b = 2' }],
      totalLines: 3,
      lang: 'typescript',
      content: 'const b = 2',
    })
    expect(definition.presentCall!(args)).toMatchObject({ card: 'generic', title: 'Read a.ts', kind: 'read' })
  })

  it('keeps the requested offset in the card even when the window is empty', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'short.txt'), 'one\n')
    const { call, ctx, text } = await fsRuntime({ roots: [root] })
    const result = await call('read', { file_path: 'short.txt', offset: 10 })
    expect(text(result)).toBe('(offset 10 is past the end of short.txt, which has 1 lines)')
    const view = ctx.tools.get('read')!.presentResult!(
      { file_path: 'short.txt', offset: 10 },
      result,
      result.meta,
    )
    expect(view).toMatchObject({ card: 'read', offset: 10, lines: [], totalLines: 1 })
  })

  it('caps the window at maxReadLines and cuts long lines', async () => {
    const root = await tempDir()
    const lines = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'w'.repeat(300) : `line ${i + 1}`))
    await fs.writeFile(path.join(root, 'big.txt'), lines.join('\n'))
    const { ok } = await fsRuntime({ roots: [root], maxReadLines: 20, maxLineLength: 100 })
    const value = await ok('read', { file_path: 'big.txt', limit: 1000 })
    expect(value.lines).toHaveLength(20)
    expect(value.truncated).toBe(true)
    expect(value.totalLines).toBe(50)
    expect(value.lines[0].text).toBe(`${'w'.repeat(100)}… [line truncated: 300 bytes in total]`)
  })

  it('streams a 2,000-line window out of a large file', async () => {
    const root = await tempDir()
    const handle = await fs.open(path.join(root, 'huge.log'), 'w')
    for (let block = 0; block < 50; block++) {
      const rows = Array.from(
        { length: 10_000 },
        (_, i) => `entry ${block * 10_000 + i + 1} ${'.'.repeat(40)}`,
      )
      await handle.write(`${rows.join('\n')}\n`)
    }
    await handle.close()
    const { ok } = await fsRuntime({ roots: [root] })
    const value = await ok('read', { file_path: 'huge.log', offset: 250_001 })
    expect(value.totalLines).toBe(500_000)
    expect(value.lines).toHaveLength(2000)
    expect(value.lines[0]).toEqual({ number: 250_001, text: `entry 250001 ${'.'.repeat(40)}` })
    expect(value.lines[1999].number).toBe(252_000)
  })

  it('refuses binary files, directories, missing files and bad offsets', async () => {
    const root = await tempDir()
    await fs.writeFile(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]))
    await fs.mkdir(path.join(root, 'dir'))
    const { fails } = await fsRuntime({ roots: [root] })
    expect(await fails('read', { file_path: 'image.png' }, 'BINARY_FILE')).toMatch(/binary file/)
    await fails('read', { file_path: 'dir' }, 'WRONG_FILE_TYPE')
    expect(await fails('read', { file_path: 'nope.txt' }, 'NOT_FOUND')).toBe('file not found: nope.txt')
    await fails('read', { file_path: 'dir', offset: 0 }, 'INVALID_ARGS')
    await fails('read', { file_path: 'dir', offset: 'x' }, 'INVALID_ARGS')
  })

  it('is scheduled parallel', async () => {
    const root = await tempDir()
    const { ctx } = await fsRuntime({ roots: [root] })
    const input = (name: string, args: object) => ({
      callId: 'x',
      name,
      arguments: args,
      signal: new AbortController().signal,
    })
    expect(ctx.tools.executionMode(input('read', { file_path: 'a' }))).toBe('parallel')
    expect(ctx.tools.executionMode(input('glob', { pattern: '*' }))).toBe('parallel')
    expect(ctx.tools.executionMode(input('grep', { pattern: 'x' }))).toBe('parallel')
    expect(ctx.tools.executionMode(input('write', { file_path: 'a', content: '' }))).toBe('exclusive')
    expect(ctx.tools.executionMode(input('edit', { file_path: 'a', old_string: 'a', new_string: 'b' }))).toBe(
      'exclusive',
    )
  })
})
