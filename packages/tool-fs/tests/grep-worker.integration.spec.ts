// The grep worker's lifetime: a budget that expires or an abort terminates the worker (matching
// runs on its thread, so this thread's timer and listener stay live); a clean call returns it
// for reuse; closing the plugin terminates every worker. Counted through the real pool.
import { readdirSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { resolveFsToolsConfig } from '../src/config'
import { createFsToolContext } from '../src/fs-tool-context'
import { createGrepTool } from '../src/tools/grep-tool'
import { fsRuntime } from './fixtures/runtime'
import { tempDir } from './fixtures/temp-dir'

async function bigTree(files: number, lineLength: number) {
  const root = await tempDir()
  const text = `${Array.from({ length: 8 }, () => 'a'.repeat(lineLength)).join('\n')}\n`
  await Promise.all(Array.from({ length: files }, (_, i) => fs.writeFile(path.join(root, `f${i}.txt`), text)))
  return root
}

const threads = () => readdirSync('/proc/self/task').length

function grepWith(root: string, config: Record<string, unknown> = {}) {
  const context = createFsToolContext(resolveFsToolsConfig({ roots: [root], ...config }))
  const tool = createGrepTool(context)
  const grep = (args: Record<string, unknown>, signal = new AbortController().signal) =>
    (tool.execute as any)(args, { signal, callId: 'c', agent: undefined }) as Promise<{ total: number }>
  return { context, grep }
}

describe('grep worker lifetime', () => {
  // First in the file, so no other test's worker is still exiting while the threads are counted.
  it.runIf(process.platform === 'linux')(
    'disposing the plugin terminates its idle grep workers',
    async () => {
      const root = await bigTree(1, 10)
      const { ok, fiber } = await fsRuntime({ roots: [root] })
      // Idle workers are unref'd, so count OS threads (Linux) rather than active handles.
      const before = threads()
      expect((await ok('grep', { pattern: 'a' })).total).toBe(8)
      expect(threads()).toBeGreaterThan(before)
      await fiber.dispose()
      await vi.waitFor(() => expect(threads()).toBe(before))
    },
  )

  it('a clean call returns its worker to the pool and the next call reuses it', async () => {
    const root = await bigTree(2, 10)
    const { context, grep } = grepWith(root)
    expect(context.grepWorkers.liveWorkers).toBe(0)
    expect((await grep({ pattern: 'a+' })).total).toBe(16)
    expect(context.grepWorkers.liveWorkers).toBe(1)
    expect((await grep({ pattern: 'b' })).total).toBe(0)
    expect(context.grepWorkers.liveWorkers).toBe(1)
    await context.grepWorkers.close()
    expect(context.grepWorkers.liveWorkers).toBe(0)
  })

  it('an expired budget ends the call with SEARCH_BUDGET_EXCEEDED and terminates the worker', async () => {
    // 40 files × 8 lines × 200k `a`s under a nested-quantifier pattern: far more than 1 ms of work.
    const root = await bigTree(40, 200_000)
    const { context, grep } = grepWith(root, { grepTimeoutMs: 1 })
    await expect(grep({ pattern: '(.*a){20}(a|aa)*$' })).rejects.toMatchObject({
      code: 'SEARCH_BUDGET_EXCEEDED',
    })
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(0))
    // The pool recovers: the next call starts a fresh worker.
    const small = await tempDir()
    await fs.writeFile(path.join(small, 'a.txt'), 'hit\n')
    const fresh = grepWith(small)
    expect((await fresh.grep({ pattern: 'hit' })).total).toBe(1)
    await fresh.context.grepWorkers.close()
  })

  it('an abort during matching rejects with the abort reason and terminates the worker', async () => {
    const root = await bigTree(40, 200_000)
    const { context, grep } = grepWith(root)
    const controller = new AbortController()
    const call = grep({ pattern: '(.*a){20}(a|aa)*$' }, controller.signal)
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(1))
    controller.abort(new Error('stop now'))
    await expect(call).rejects.toThrow('stop now')
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(0))
  })

  it('through the runtime, the budget error reaches the model as data', async () => {
    const root = await bigTree(40, 200_000)
    const { fails } = await fsRuntime({ roots: [root], grepTimeoutMs: 1 })
    expect(await fails('grep', { pattern: '(.*a){20}(a|aa)*$' }, 'SEARCH_BUDGET_EXCEEDED')).toMatch(
      /grepTimeoutMs/,
    )
  })
})
