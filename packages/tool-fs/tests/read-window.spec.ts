import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readWindow } from '../src/read-window'
import { tempDir } from './fixtures/temp-dir'

const defaults = { offset: 1, limit: 2000, maxLineLength: 2000, maxBytes: 1 << 20, label: 'f' }

async function windowOf(content: string | Buffer, options: Partial<typeof defaults> = {}) {
  const file = path.join(await tempDir(), 'f.txt')
  await fs.writeFile(file, content)
  const handle = await fs.open(file)
  try {
    return await readWindow(handle, { ...defaults, ...options })
  } finally {
    await handle.close()
  }
}

describe('readWindow', () => {
  it('counts lines with and without a final newline; an empty file has none', async () => {
    expect((await windowOf('a\nb\n')).totalLines).toBe(2)
    expect((await windowOf('a\nb')).totalLines).toBe(2)
    expect(await windowOf('')).toEqual({ lines: [], totalLines: 0, truncated: false })
  })

  it('returns the requested 1-based window and says when lines follow', async () => {
    const content = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')
    const result = await windowOf(content, { offset: 3, limit: 2 })
    expect(result).toEqual({
      lines: [
        { number: 3, text: 'line 3' },
        { number: 4, text: 'line 4' },
      ],
      totalLines: 10,
      truncated: true,
    })
    expect((await windowOf(content, { offset: 9, limit: 5 })).truncated).toBe(false)
    expect(await windowOf(content, { offset: 50 })).toEqual({ lines: [], totalLines: 10, truncated: false })
  })

  it('strips CR of CRLF lines and a leading BOM', async () => {
    const result = await windowOf('\uFEFFone\r\ntwo\r\n')
    expect(result.lines.map((l) => l.text)).toEqual(['one', 'two'])
  })

  it('cuts long lines with a marker that states their real size', async () => {
    const result = await windowOf(`${'x'.repeat(100_000)}\nshort\n`, { maxLineLength: 10 })
    expect(result.lines[0]!.text).toBe('xxxxxxxxxx… [line truncated: 100000 bytes in total]')
    expect(result.lines[1]!.text).toBe('short')
  })

  it('ends the window early at the byte cap but keeps at least one line', async () => {
    const content = Array.from({ length: 100 }, () => 'y'.repeat(99)).join('\n')
    const result = await windowOf(content, { maxBytes: 1000 })
    expect(result.lines).toHaveLength(10)
    expect(result.truncated).toBe(true)
    expect(result.totalLines).toBe(100)
    expect((await windowOf(content, { maxBytes: 1 })).lines).toHaveLength(1)
  })

  it('streams windows spanning chunk boundaries in a large file', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `row ${i + 1} ${'z'.repeat(i % 50)}`)
    const result = await windowOf(lines.join('\n') + '\n', { offset: 150_001, limit: 3 })
    expect(result.totalLines).toBe(200_000)
    expect(result.lines).toEqual([
      { number: 150_001, text: lines[150_000] },
      { number: 150_002, text: lines[150_001] },
      { number: 150_003, text: lines[150_002] },
    ])
  })

  it('refuses files with NUL bytes or invalid UTF-8 at the start', async () => {
    await expect(windowOf(Buffer.from([0x68, 0x00, 0x69]))).rejects.toMatchObject({ code: 'BINARY_FILE' })
    await expect(windowOf(Buffer.from([0xff, 0xfe, 0x41]))).rejects.toMatchObject({ code: 'BINARY_FILE' })
    expect((await windowOf('héllo wörld ✓\n')).lines[0]!.text).toBe('héllo wörld ✓')
  })

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    const file = path.join(await tempDir(), 'f.txt')
    await fs.writeFile(file, 'a\n')
    const handle = await fs.open(file)
    await expect(readWindow(handle, { ...defaults, signal: controller.signal })).rejects.toThrow('stop')
    await handle.close()
  })
})
