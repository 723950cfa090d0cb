/**
 * The runtime's run queue (`maxConcurrentRuns` live workers, `maxQueuedRuns` waiting runs),
 * carried by `worker-threads-pool`: queue-full refusals, aborting a queued run, dispose with
 * queued runs, and the cap — with real workers, asserted with counters, never durations.
 */
import type { CodeRunHost } from '@dsh/tools-codemode'
import { describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { request } from './fixtures/host'

/** A host whose `hold` tool answers only when released; counts calls in flight. */
function gate(signal: AbortSignal = new AbortController().signal) {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let entered = 0
  let notifyEntered: () => void = () => {}
  const host: CodeRunHost = {
    signal,
    async call() {
      entered += 1
      notifyEntered()
      await released
      return 'released'
    },
  }
  /** Resolves once `count` calls have reached the host. */
  const reached = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (entered >= count) resolve()
      }
      notifyEntered = check
      check()
    })
  return { host, release, reached }
}

const HOLD = request('return await tools.hold({})', ['hold'])

async function withRuntime(
  config: Parameters<typeof createWorkerThreadRuntime>[0],
  body: (runtime: WorkerThreadRuntime) => Promise<void>,
): Promise<void> {
  const runtime = createWorkerThreadRuntime({ engine: 'node-vm', ...config })
  try {
    await body(runtime)
  } finally {
    await runtime.dispose()
  }
}

describe('run queue (maxConcurrentRuns, maxQueuedRuns)', () => {
  it('a run beyond the cap and the queue fails at once with a queue-full abort', async () => {
    await withRuntime({ warmWorkers: 0, maxConcurrentRuns: 1, maxQueuedRuns: 1 }, async (runtime) => {
      const { host, release, reached } = gate()
      const running = runtime.run(HOLD, host)
      await reached(1)
      const queued = runtime.run(request('return 2'), host)
      await until(() => runtime.stats().queuedRuns === 1)
      const refused = await runtime.run(request('return 3'), host)
      expect(refused).toEqual({
        ok: false,
        kind: 'abort',
        logs: [],
        message:
          'the run queue is full: 1 workers (maxConcurrentRuns) are busy and 1 runs (maxQueuedRuns) already wait',
      })
      expect(runtime.stats()).toMatchObject({ liveWorkers: 1, queuedRuns: 1 })
      release()
      expect(await running).toMatchObject({ ok: true, result: 'released' })
      expect(await queued).toMatchObject({ ok: true, result: 2 })
    })
  })

  it('maxQueuedRuns 0 refuses any run that finds no free slot', async () => {
    await withRuntime({ warmWorkers: 0, maxConcurrentRuns: 1, maxQueuedRuns: 0 }, async (runtime) => {
      const { host, release, reached } = gate()
      const running = runtime.run(HOLD, host)
      await reached(1)
      expect(await runtime.run(request('return 2'), host)).toMatchObject({ ok: false, kind: 'abort' })
      release()
      await running
      await runtime.whenIdle()
      expect(await runtime.run(request('return 3'), host)).toMatchObject({ ok: true, result: 3 })
    })
  })

  it('a queued run aborted before it starts leaves the queue, spawns no worker, and frees its place', async () => {
    await withRuntime({ warmWorkers: 0, maxConcurrentRuns: 1, maxQueuedRuns: 1 }, async (runtime) => {
      const { host, release, reached } = gate()
      const running = runtime.run(HOLD, host)
      await reached(1)
      const controller = new AbortController()
      const aborted = runtime.run(request('return "never"'), { ...host, signal: controller.signal })
      await until(() => runtime.stats().queuedRuns === 1)
      controller.abort()
      expect(await aborted).toEqual({ ok: false, kind: 'abort', message: 'the run was aborted', logs: [] })
      expect(runtime.stats()).toMatchObject({ queuedRuns: 0, liveWorkers: 1 })
      // Its queue place is free: the next run queues instead of being refused.
      const next = runtime.run(request('return 4'), host)
      await until(() => runtime.stats().queuedRuns === 1)
      release()
      expect(await running).toMatchObject({ ok: true })
      expect(await next).toMatchObject({ ok: true, result: 4 })
      await runtime.whenIdle()
      expect(runtime.stats()).toMatchObject({ liveWorkers: 0, queuedRuns: 0, runningWorkers: 0 })
    })
  })

  it('dispose settles queued runs as abort and leaves no worker', async () => {
    const runtime = createWorkerThreadRuntime({ engine: 'node-vm', warmWorkers: 1, maxConcurrentRuns: 1 })
    const { host, reached } = gate()
    const running = runtime.run(HOLD, host)
    await reached(1)
    const queued = [runtime.run(request('return 1'), host), runtime.run(request('return 2'), host)]
    await until(() => runtime.stats().queuedRuns === 2)
    await runtime.dispose()
    for (const outcome of await Promise.all(queued)) {
      expect(outcome).toEqual({
        ok: false,
        kind: 'abort',
        message: 'the code runtime was disposed',
        logs: [],
      })
    }
    expect(await running).toMatchObject({ ok: false, kind: 'abort' })
    expect(runtime.stats()).toMatchObject({
      liveWorkers: 0,
      queuedRuns: 0,
      runningWorkers: 0,
      warmWorkers: 0,
    })
  })

  it('never has more than maxConcurrentRuns workers alive, warm ones included', async () => {
    await withRuntime({ warmWorkers: 2, maxConcurrentRuns: 2, maxQueuedRuns: 16 }, async (runtime) => {
      let maxLive = 0
      const sample = () => {
        maxLive = Math.max(maxLive, runtime.stats().liveWorkers)
      }
      const host: CodeRunHost = {
        signal: new AbortController().signal,
        async call(_name, args) {
          sample()
          return args
        },
      }
      const timer = setInterval(sample, 1)
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, n) =>
            runtime.run(request(`return await tools.echo(${n})`, ['echo']), host),
          ),
        )
        expect(outcomes.map((outcome) => (outcome.ok ? outcome.result : outcome.message))).toEqual([
          0, 1, 2, 3, 4, 5, 6, 7,
        ])
      } finally {
        clearInterval(timer)
      }
      sample()
      expect(maxLive).toBeGreaterThan(0)
      expect(maxLive).toBeLessThanOrEqual(2)
    })
  })

  it('process isolation: the run process holds its slot until it has exited', async () => {
    await withRuntime(
      { isolation: 'process', warmWorkers: 0, maxConcurrentRuns: 1, maxQueuedRuns: 0 },
      async (runtime) => {
        const { host, release, reached } = gate()
        const running = runtime.run(HOLD, host)
        await reached(1)
        expect(await runtime.run(request('return 2'), host)).toMatchObject({ ok: false, kind: 'abort' })
        release()
        expect(await running).toMatchObject({ ok: true, result: 'released' })
        await runtime.whenIdle()
        expect(runtime.stats().liveWorkers).toBe(0)
        expect(await runtime.run(request('return 3'), host)).toMatchObject({ ok: true, result: 3 })
      },
    )
  })
})

/** Wait, a macrotask at a time, until `condition` holds (a counter, not a duration). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve))
}
