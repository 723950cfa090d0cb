/**
 * `RunSlots`, the wrapper around `worker-threads-pool`: the live-worker cap, the waiting queue,
 * and what the library lacks (withdrawing a queued acquire, a zero-length queue, close) — with
 * real worker threads.
 */
import type { Worker } from 'node:worker_threads'
import { RunSlots, type SlotGrant } from '@dsh/tools-codemode/runtime-kit'
import { afterEach, describe, expect, it } from 'vitest'

// A worker that stays alive until terminated, and reports each start.
const IDLE_WORKER = "require('node:worker_threads').parentPort.on('message', () => {})"
const OPTIONS = { eval: true as const, env: {}, execArgv: [], argv: [] }

const spawned: Worker[] = []
afterEach(async () => {
  await Promise.all(spawned.splice(0).map((worker) => worker.terminate()))
})

function granted(grant: SlotGrant): Worker {
  if (!grant.ok) throw new Error(`expected a worker, got ${grant.reason}`)
  spawned.push(grant.worker)
  return grant.worker
}

function exited(worker: Worker): Promise<void> {
  return new Promise((resolve) => worker.once('exit', () => resolve()))
}

describe('RunSlots (worker-threads-pool)', () => {
  it('spawns up to max workers, queues up to maxQueued acquires, and refuses the next at once', async () => {
    const slots = new RunSlots(2, 1)
    const first = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    expect(slots.live).toBe(2)
    const queued = slots.acquire(IDLE_WORKER, OPTIONS)
    expect(slots.queued).toBe(1)
    expect(await slots.acquire(IDLE_WORKER, OPTIONS)).toEqual({ ok: false, reason: 'queue-full' })
    expect(slots.queued).toBe(1)
    // The queued acquire gets the slot of the first worker to exit.
    await first.terminate()
    granted(await queued)
    expect(slots.live).toBe(2)
    expect(slots.queued).toBe(0)
  })

  it('withdraws an aborted queued acquire: it spawns nothing and frees its queue place', async () => {
    const slots = new RunSlots(1, 1)
    const holder = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    const controller = new AbortController()
    const queued = slots.acquire(IDLE_WORKER, OPTIONS, controller.signal)
    controller.abort()
    expect(await queued).toEqual({ ok: false, reason: 'aborted' })
    expect(slots.queued).toBe(0)
    // Its place is free again: another acquire queues instead of being refused as full.
    const next = slots.acquire(IDLE_WORKER, OPTIONS)
    expect(slots.queued).toBe(1)
    await holder.terminate()
    granted(await next)
    // Only the live acquire got a worker: one slot taken, nothing else spawned for the aborted one.
    expect(slots.live).toBe(1)
  })

  it('terminates a worker the library spawned for an acquire aborted in that same turn', async () => {
    const slots = new RunSlots(1, 1)
    const holder = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    const controller = new AbortController()
    const queued = slots.acquire(IDLE_WORKER, OPTIONS, controller.signal)
    // The library's exit listener (registered first) hands the slot to the queued acquire and
    // spawns; the abort lands before the grant's callback.
    holder.once('exit', () => controller.abort())
    await holder.terminate()
    expect(await queued).toEqual({ ok: false, reason: 'aborted' })
    while (slots.live > 0) await new Promise((resolve) => setImmediate(resolve))
    expect(slots.queued).toBe(0)
  })

  it('refuses an acquire with an already aborted signal without queueing it', async () => {
    const slots = new RunSlots(1, 4)
    granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    expect(await slots.acquire(IDLE_WORKER, OPTIONS, AbortSignal.abort())).toEqual({
      ok: false,
      reason: 'aborted',
    })
    expect(slots.queued).toBe(0)
  })

  it('treats maxQueued 0 as no queue (the library would read it as unlimited)', async () => {
    const slots = new RunSlots(1, 0)
    const holder = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    expect(await slots.acquire(IDLE_WORKER, OPTIONS)).toEqual({ ok: false, reason: 'queue-full' })
    expect(slots.queued).toBe(0)
    await holder.terminate()
    granted(await slots.acquire(IDLE_WORKER, OPTIONS))
  })

  it('frees a slot only when its worker exits', async () => {
    const slots = new RunSlots(1, 0)
    const holder = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    expect(slots.free).toBe(false)
    const gone = exited(holder)
    holder.postMessage('still alive')
    expect(slots.free).toBe(false)
    await holder.terminate()
    await gone
    expect(slots.free).toBe(true)
  })

  it('close refuses every queued acquire (withdrawn from the library) and every later one', async () => {
    const slots = new RunSlots(1, 8)
    const holder = granted(await slots.acquire(IDLE_WORKER, OPTIONS))
    const queued = [slots.acquire(IDLE_WORKER, OPTIONS), slots.acquire(IDLE_WORKER, OPTIONS)]
    slots.close()
    expect(await Promise.all(queued)).toEqual([
      { ok: false, reason: 'closed' },
      { ok: false, reason: 'closed' },
    ])
    expect(await slots.acquire(IDLE_WORKER, OPTIONS)).toEqual({ ok: false, reason: 'closed' })
    await holder.terminate()
    // Nothing was left in the library's queue to spawn into the freed slot.
    await new Promise((resolve) => setImmediate(resolve))
    expect(slots.live).toBe(0)
  })
})
