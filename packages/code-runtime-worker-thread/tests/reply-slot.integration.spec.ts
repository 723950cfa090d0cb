/**
 * A QuickJS run with its reply slot: sequential calls are answered through the slot (the host
 * posts far fewer `res` messages than there are calls), replies too large for it and replies
 * of slow tools (the worker is no longer blocked: a `wake` message) still arrive, in order.
 */
import { describe, expect, it } from 'vitest'
import { resolveWorkerThreadRuntimeConfig } from '../src/config'
import { createWorkerThreadRuntime } from '../src/index'
import { spawnWorkerHandle, type WorkerHandle } from '../src/pool/worker-handle'
import { REPLY_SLOT_BYTES } from '../src/protocol/reply-slot'
import { runSession } from '../src/run/run-session'
import { wrapProgram } from '../src/strip/wrap-program'
import { fakeHost } from './fixtures/host'

const config = resolveWorkerThreadRuntimeConfig({ engine: 'quickjs', maxWallMs: 120_000 })

/** Run `program` on a fresh QuickJS worker, counting the messages the host posts by kind. */
async function runCounting(program: string, tools: Parameters<typeof fakeHost>[0]) {
  const handle: WorkerHandle = spawnWorkerHandle({
    engine: 'quickjs',
    maxOldGenerationSizeMb: 64,
    computeMs: config.computeMs,
  })
  expect(handle.replySlot).toBeInstanceOf(SharedArrayBuffer)
  expect(await handle.booted).toEqual({ ok: true })
  const posted: Record<string, number> = {}
  const post = handle.worker.postMessage.bind(handle.worker)
  handle.worker.postMessage = (message: unknown) => {
    const kind = String((message as { k?: unknown }).k)
    posted[kind] = (posted[kind] ?? 0) + 1
    post(message)
  }
  const { host, calls } = fakeHost(tools)
  const outcome = await runSession(handle, {
    source: wrapProgram(program),
    toolNames: Object.keys(tools),
    host,
    config,
    shutdown: new AbortController().signal,
  })
  await handle.worker.terminate()
  await handle.exited
  return { outcome, posted, calls }
}

describe('QuickJS reply slot', () => {
  it('answers sequential calls through the slot', async () => {
    const { outcome, posted, calls } = await runCounting(
      'let sum = 0\nfor (let i = 0; i < 300; i++) sum += await tools.add({ i })\nreturn sum',
      { add: (args) => (args as { i: number }).i },
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: (299 * 300) / 2 })
    expect(calls).toHaveLength(300)
    // Every reply went through the slot; at most a wake message each, never a res message.
    expect(posted.res ?? 0).toBe(0)
    expect(posted.wake ?? 0).toBeLessThanOrEqual(300)
  })

  it('falls back to res messages for replies larger than the slot, and wakes a worker not waiting', async () => {
    const big = 'x'.repeat(REPLY_SLOT_BYTES + 10)
    const { outcome, posted } = await runCounting(
      `const a = await tools.big({})
      const b = await tools.slow({ ms: 30 })
      const c = await tools.slow({ ms: 0 })
      return [a.length, b, c]`,
      {
        big: () => big,
        slow: (args) =>
          new Promise((resolve) =>
            setTimeout(() => resolve((args as { ms: number }).ms), (args as { ms: number }).ms),
          ),
      },
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: [big.length, 30, 0] })
    expect(posted.res).toBe(1)
    // The worker stopped blocking while the slow tool ran, so that reply needed a wake message.
    expect(posted.wake).toBeGreaterThanOrEqual(1)
  })

  it('stops blocking on the slot for slow tools, so waiting does not use up computeMs', async () => {
    // Blocking counts as busy time on the host's watchdog; 80 calls × a 4 ms window would be
    // 320 ms, past this computeMs, without the worker's block budget (computeMs / 20).
    const runtime = createWorkerThreadRuntime({ engine: 'quickjs', warmWorkers: 0, computeMs: 300 })
    try {
      const { host } = fakeHost({ slow: () => new Promise((resolve) => setTimeout(() => resolve(1), 15)) })
      const outcome = await runtime.run(
        {
          code: 'let n = 0\nfor (let i = 0; i < 80; i++) n += await tools.slow({})\nreturn n',
          description: 'slow calls',
          toolNames: ['slow'],
        },
        host,
      )
      expect(outcome).toEqual({ ok: true, logs: [], result: 80 })
    } finally {
      await runtime.dispose()
    }
  })
})
