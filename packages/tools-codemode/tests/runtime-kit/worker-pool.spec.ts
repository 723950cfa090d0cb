import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createCallCursor,
  createMessageParser,
  type SlotSpawn,
  trackWorker,
  WorkerPool,
  type WorkerPoolLimits,
} from '../../src/runtime-kit/index'

// A thread that reports ready and then waits for messages, as a run worker does.
const SOURCE =
  "const p = require('node:worker_threads').parentPort; p.postMessage({ k: 'ready' }); p.on('message', () => {})"
const READY = { ok: true } as const

function spawnThread(): SlotSpawn<ReturnType<typeof trackWorker<Worker, typeof READY>>> {
  return {
    source: SOURCE,
    options: { eval: true },
    adopt: (thread) =>
      trackWorker(
        thread,
        (message) => ((message as { k?: unknown }).k === 'ready' ? READY : undefined),
        String,
      ),
  }
}

let pool: WorkerPool<ReturnType<typeof trackWorker<Worker, typeof READY>>> | undefined
afterEach(async () => {
  await pool?.dispose()
  pool = undefined
})

function makePool(limits: WorkerPoolLimits) {
  pool = new WorkerPool(spawnThread, limits)
  return pool
}

describe('WorkerPool', () => {
  it('keeps warm workers within its cap, hands each run a fresh one, and refuses past its queue', async () => {
    const workers = makePool({ warmWorkers: 2, maxLiveWorkers: 2, maxQueuedRuns: 0 })
    workers.fill()
    expect(workers.warm).toBe(2)
    const first = await workers.take()
    const second = await workers.take()
    expect(first.ok && second.ok).toBe(true)
    if (!first.ok || !second.ok) return
    expect(first.handle).not.toBe(second.handle)
    expect(await first.handle.booted).toEqual(READY)
    // Both slots are taken and no queue is allowed: the next run is refused at once.
    expect(await workers.take()).toEqual({ ok: false, reason: 'queue-full' })
    await first.handle.worker.terminate()
    workers.release(first.handle)
    await first.handle.exited
    expect(workers.running).toBe(1)
  })

  it('a dispose right after fill() waits for the workers the library spawns for refused acquires', async () => {
    for (let round = 0; round < 5; round++) {
      const workers = new WorkerPool(spawnThread, { warmWorkers: 2, maxLiveWorkers: 4, maxQueuedRuns: 0 })
      workers.fill()
      await workers.dispose()
      // Every thread the library started has exited: none holds a slot or a port any more.
      expect(workers.live, `round ${round}`).toBe(0)
    }
  })

  it('queues a run until a slot frees, and withdraws it when its signal aborts', async () => {
    const workers = makePool({ warmWorkers: 0, maxLiveWorkers: 1, maxQueuedRuns: 4 })
    const held = await workers.take()
    const controller = new AbortController()
    const queued = workers.take(controller.signal)
    expect(workers.queued).toBe(1)
    controller.abort()
    expect(await queued).toEqual({ ok: false, reason: 'aborted' })
    expect(workers.queued).toBe(0)
    expect(held.ok).toBe(true)
  })

  it('dispose terminates and awaits every worker, warm and running, and refuses later takes', async () => {
    const workers = makePool({ warmWorkers: 2, maxLiveWorkers: 3, maxQueuedRuns: 4 })
    workers.fill()
    const taken = await workers.take()
    await workers.dispose()
    expect(taken.ok && taken.handle.hasExited()).toBe(true)
    expect({ live: workers.live, warm: workers.warm }).toEqual({ live: 0, warm: 0 })
    expect(await workers.take()).toEqual({ ok: false, reason: 'closed' })
  })
})

describe('createMessageParser', () => {
  const parse = createMessageParser<{ readonly kind: 'ping' }>({
    ping: () => ({ ok: true, message: { kind: 'ping' } }),
  })

  it('reads the shared kinds and the runtime’s own by their own `k` only', () => {
    const cursor = createCallCursor([])
    expect(parse({ k: 'ping' }, cursor)).toEqual({ ok: true, message: { kind: 'ping' } })
    expect(parse({ k: 'ready' }, cursor)).toEqual({ ok: true, message: { kind: 'ready' } })
    expect(parse({ k: 'done', s: 0, v: '1' }, cursor)).toMatchObject({ ok: true, message: { kind: 'done' } })
    for (const raw of [
      null,
      [],
      { k: 'constructor' },
      { k: 'toString' },
      { k: 'nope' },
      Object.create({ k: 'ping' }),
    ]) {
      expect(parse(raw, cursor).ok, JSON.stringify(raw)).toBe(false)
    }
  })
})
