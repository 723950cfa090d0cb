// glob and grep bound their work: directory entries visited (maxWalkEntries), bytes searched
// (maxGrepTotalBytes), and the call's signal between entries and batches.
import fs from 'node:fs/promises'
import path from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { validateFsToolsConfig } from '../src/config'
import * as toolFs from '../src/index'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

async function wideTree(directories: number, filesEach: number) {
  const root = await tempDir()
  for (let dir = 0; dir < directories; dir++) {
    const directory = path.join(root, `d${String(dir).padStart(3, '0')}`)
    await fs.mkdir(directory)
    await Promise.all(
      Array.from({ length: filesEach }, (_, file) =>
        fs.writeFile(path.join(directory, `f${file}.txt`), 'hit\n'),
      ),
    )
  }
  return root
}

describe('search bounds', () => {
  it('glob stops at maxWalkEntries and says the result is partial', async () => {
    const root = await wideTree(10, 10)
    const { call, text } = await fsRuntime({ roots: [root], maxWalkEntries: 35 })
    const result = await call('glob', { pattern: '**/*.txt' })
    if (result.isError) throw new Error(result.error.message)
    const value = result.value as { total: number; stoppedAt?: string }
    expect(value.stoppedAt).toBe('maxWalkEntries')
    expect(value.total).toBeLessThan(100)
    expect(text(result)).toContain('search stopped early at the maxWalkEntries bound')
  })

  it('glob and grep under the bound carry no stoppedAt', async () => {
    const root = await wideTree(2, 2)
    const { ok } = await fsRuntime({ roots: [root], maxWalkEntries: 6 })
    expect(await ok('glob', { pattern: '**' })).not.toHaveProperty('stoppedAt')
    expect(await ok('grep', { pattern: 'hit' })).not.toHaveProperty('stoppedAt')
  })

  it('grep stops at maxWalkEntries too', async () => {
    const root = await wideTree(10, 10)
    const { ok } = await fsRuntime({ roots: [root], maxWalkEntries: 35 })
    const value = await ok('grep', { pattern: 'hit' })
    expect(value.stoppedAt).toBe('maxWalkEntries')
    // Every file the walk yielded before the bound is searched, none skipped.
    expect(value.filesSearched).toBeGreaterThan(0)
    expect(value.filesSearched).toBeLessThan(100)
    expect(value.filesSkipped).toBe(0)
    expect(value.total).toBe(value.filesSearched)
  })

  it('grep stops at maxGrepTotalBytes, counting the files left out as skipped', async () => {
    const root = await wideTree(4, 25) // 100 files × 4 bytes
    const { call, text } = await fsRuntime({ roots: [root], maxGrepTotalBytes: 50 })
    const result = await call('grep', { pattern: 'hit' })
    if (result.isError) throw new Error(result.error.message)
    const value = result.value as {
      total: number
      filesSearched: number
      filesSkipped: number
      stoppedAt?: string
    }
    expect(value.stoppedAt).toBe('maxGrepTotalBytes')
    expect(value.filesSearched).toBe(12)
    expect(value.total).toBe(12)
    expect(value.filesSkipped).toBeGreaterThan(0)
    expect(text(result)).toContain('search stopped early at the maxGrepTotalBytes bound')
  })

  it.each(['glob', 'grep'])('%s honours an already-aborted signal', async (tool) => {
    const root = await wideTree(3, 3)
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(toolFs, { roots: [root] })
    const controller = new AbortController()
    controller.abort(new Error('cancelled by the user'))
    const result = await ctx.tools.execute({
      callId: 'abort-1',
      name: tool,
      arguments: tool === 'glob' ? { pattern: '**' } : { pattern: 'hit' },
      signal: controller.signal,
    })
    expect(result.isError).toBe(true)
  })

  it('config rejects non-positive bounds', () => {
    expect(
      validateFsToolsConfig({ grepTimeoutMs: 0, maxWalkEntries: -1, maxGrepTotalBytes: 1.5 }).issues,
    ).toHaveLength(3)
  })
})
