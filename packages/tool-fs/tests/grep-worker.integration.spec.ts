// The grep worker's lifetime: a budget that expires or an abort terminates the worker (matching
// runs on its thread, so this thread's timer and listener stay live); a clean call returns it
// for reuse; closing the plugin terminates every worker. Counted through the real pool.
import { readdirSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it, vi } from 'vitest'
import { resolveFsToolsConfig } from '../src/config'
import { createFsToolContext } from '../src/fs-tool-context'
import { GrepWorkerLease } from '../src/grep/grep-worker-lease'
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

/**
 * The thread count once it holds still: files share their vitest worker's process, and a worker
 * thread an earlier file disposed may still be exiting when this file starts.
 */
async function settledThreads(): Promise<number> {
  let last = threads()
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const now = threads()
    if (now === last) return now
    last = now
  }
  return last
}

function grepWith(root: string, config: Record<string, unknown> = {}) {
  const context = createFsToolContext(resolveFsToolsConfig({ roots: [root], ...config }))
  const tool = createGrepTool(context)
  const grep = (args: Record<string, unknown>, signal = new AbortController().signal) =>
    (tool.execute as any)(args, { signal, callId: 'c', agent: undefined }) as Promise<{ total: number }>
  return { context, grep }
}

describe('grep worker lifetime', () => {
  // First in the file, so no other test's worker is still exiting while the threads are counted.
  it('disposing the plugin terminates its idle grep workers', async (ctx) => {
    ctx.skip(process.platform !== 'linux', 'counts OS threads through /proc, which only Linux has')
    const root = await bigTree(1, 10)
    const { ok, fiber } = await fsRuntime({ roots: [root] })
    // Idle workers are unref'd, so count OS threads (Linux) rather than active handles.
    const before = await settledThreads()
    expect((await ok('grep', { pattern: 'a' })).total).toBe(8)
    expect(threads()).toBeGreaterThan(before)
    await fiber.dispose()
    await vi.waitFor(() => expect(threads()).toBe(before))
  })

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
    // 4 files × 8 lines × 200k `a`s under a nested-quantifier pattern: far more than 1 ms of work.
    const root = await bigTree(4, 200_000)
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
    const root = await bigTree(16, 200_000)
    const { context, grep } = grepWith(root)
    const controller = new AbortController()
    const call = grep({ pattern: '(.*a){20}(a|aa)*$' }, controller.signal)
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(1))
    controller.abort(new Error('stop now'))
    await expect(call).rejects.toThrow('stop now')
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(0))
  })

  it('through the runtime, the budget error reaches the model as data', async () => {
    const root = await bigTree(4, 200_000)
    const { fails } = await fsRuntime({ roots: [root], grepTimeoutMs: 1 })
    expect(await fails('grep', { pattern: '(.*a){20}(a|aa)*$' }, 'SEARCH_BUDGET_EXCEEDED')).toMatch(
      /grepTimeoutMs/,
    )
  })

  it('parallel calls lease at most four workers at once, and every call completes', async () => {
    const root = await bigTree(4, 20_000)
    const { context, grep } = grepWith(root)
    let most = 0
    const sampler = setInterval(() => {
      most = Math.max(most, context.grepWorkers.leasedWorkers)
    }, 1)
    try {
      const totals = await Promise.all(Array.from({ length: 10 }, () => grep({ pattern: '(a|aa)+$' })))
      expect(totals.map((value) => value.total)).toEqual(Array(10).fill(32))
    } finally {
      clearInterval(sampler)
    }
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(4)
    expect(context.grepWorkers.leasedWorkers).toBe(0)
    await context.grepWorkers.close()
  })

  it('a call aborted while waiting for a worker rejects without leasing one', async () => {
    const root = await bigTree(16, 200_000)
    const { context, grep } = grepWith(root, { grepTimeoutMs: 60_000 })
    const busy = new AbortController()
    const running = Array.from({ length: 4 }, () => grep({ pattern: '(.*a){20}(a|aa)*$' }, busy.signal))
    await vi.waitFor(() => expect(context.grepWorkers.leasedWorkers).toBe(4))
    const waiting = new AbortController()
    const queued = grep({ pattern: 'a' }, waiting.signal)
    waiting.abort(new Error('gave up waiting'))
    await expect(queued).rejects.toThrow('gave up waiting')
    busy.abort(new Error('done'))
    await Promise.allSettled(running)
    await vi.waitFor(() => expect(context.grepWorkers.liveWorkers).toBe(0))
  })

  it('a worker that dies mid-call fails the search with SEARCH_FAILED', async () => {
    const worker = new Worker('process.exit(3)', { eval: true })
    let healthy: boolean | undefined
    const lease = new GrepWorkerLease(worker, new AbortController().signal, 60_000, (value) => {
      healthy = value
    })
    const request = { pattern: 'a', caseInsensitive: false, keep: 1, maxLineLength: 10, files: [] }
    await expect(lease.search(request)).rejects.toMatchObject({ code: 'SEARCH_FAILED' })
    lease.end()
    expect(healthy).toBe(false)
  })
})
