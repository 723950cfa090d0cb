import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunHost } from '../../src/code-runtime'
import {
  DoneStatus,
  RUN_ABORTED_MESSAGE,
  RUNTIME_DISPOSED_MESSAGE,
  RunDriver,
  type RunHandle,
  type RunLimits,
  utf8LineCost,
} from '../../src/runtime-kit/index'

// A real worker that plays the script named in the run message.
const workerSource = `
const { parentPort } = require('node:worker_threads')
parentPort.on('message', (run) => {
  switch (run.script) {
    case 'complete':
      parentPort.postMessage({ log: 'hello' })
      parentPort.postMessage({ done: true })
      process.exit(0)
    case 'exit':
      process.exit(7)
    case 'flood':
      for (let i = 0; i < 100; i++) parentPort.postMessage({ log: 'x'.repeat(10) })
      setInterval(() => {}, 1000)
      return
    case 'spin':
      for (;;) {}
    default:
      setInterval(() => {}, 1000)
  }
})
`

const live = new Set<Worker>()
afterEach(async () => {
  await Promise.all([...live].map((worker) => worker.terminate()))
  live.clear()
})

function spawn(): RunHandle & { readonly raw: Worker } {
  const worker = new Worker(workerSource, { eval: true })
  live.add(worker)
  let exited = false
  const done = new Promise<number>((resolve) => worker.once('exit', resolve)).then((code) => {
    exited = true
    return code
  })
  return { raw: worker, worker, exited: done, hasExited: () => exited, lastError: () => undefined }
}

const limits: RunLimits = {
  computeMs: 60_000,
  maxWallMs: 60_000,
  maxOutputBytes: 1_000,
  maxOldGenerationSizeMb: 64,
  maxValueNodes: 50_000,
  maxValueDepth: 256,
}

/** Count the abort listeners live on `signal` (removing one never added counts nothing). */
function counted(signal: AbortSignal) {
  const listeners = new Set<unknown>()
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners.add(args[1])
    add(...args)
  }) as typeof signal.addEventListener
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners.delete(args[1])
    remove(...args)
  }) as typeof signal.removeEventListener
  return () => listeners.size
}

function setup(script: string, over: Partial<RunLimits> = {}) {
  const handle = spawn()
  const controller = new AbortController()
  const shutdown = new AbortController()
  const hostListeners = counted(controller.signal)
  const shutdownListeners = counted(shutdown.signal)
  const seen: string[] = []
  let messages = 0
  let timeouts = 0
  const host: CodeRunHost = {
    signal: controller.signal,
    call: async () => null,
    onLog: (line) => seen.push(line),
  }
  const run: RunDriver = new RunDriver({
    handle,
    host,
    shutdown: shutdown.signal,
    limits: { ...limits, ...over },
    lineCost: utf8LineCost,
    onMessage: (raw) => {
      messages += 1
      const message = raw as { log?: string; done?: true }
      if (message.log !== undefined) run.log(message.log)
      else if (message.done) run.complete(DoneStatus.OK, 'null')
    },
    onTimeout: () => {
      timeouts += 1
    },
  })
  // The handle's own exit listener goes away once the worker has exited.
  const listenerCount = () =>
    ['message', 'error', 'exit'].reduce((n, event) => n + handle.raw.listenerCount(event), 0) -
    (handle.hasExited() ? 0 : 1)
  const baseListeners = listenerCount()
  const outcome = () => run.start({ script })
  return {
    handle,
    controller,
    shutdown,
    run,
    seen,
    outcome,
    messages: () => messages,
    timeouts: () => timeouts,
    leftListeners: () => listenerCount() - baseListeners + hostListeners() + shutdownListeners(),
  }
}

describe('RunDriver', () => {
  it('settles on the completion with the logged lines and removes every listener', async () => {
    const t = setup('complete')
    const outcome = await t.outcome()
    expect(outcome).toMatchObject({ ok: true, logs: ['hello'] })
    expect(t.seen).toEqual(['hello'])
    expect(t.run.settled).toBe(true)
    // The outcome comes before the thread's teardown; the host terminates it (Node's terminate
    // listens for the exit itself), so count the run's listeners once it is gone.
    await t.handle.exited
    expect(t.leftListeners()).toBe(0)
  })

  it('fails as abort when the host signal aborts, only after the worker has exited', async () => {
    const t = setup('idle')
    const pending = t.outcome()
    t.controller.abort()
    const outcome = await pending
    expect(outcome).toMatchObject({ ok: false, kind: 'abort', message: RUN_ABORTED_MESSAGE })
    expect(t.handle.hasExited()).toBe(true)
    expect(t.leftListeners()).toBe(0)
  })

  it('fails as abort with the disposed message when the runtime shuts down', async () => {
    const t = setup('idle')
    const pending = t.outcome()
    t.shutdown.abort()
    expect(await pending).toMatchObject({ kind: 'abort', message: RUNTIME_DISPOSED_MESSAGE })
    expect(t.leftListeners()).toBe(0)
  })

  it('settles at once, without posting, when a signal is already aborted', async () => {
    const t = setup('complete')
    t.controller.abort()
    expect(await t.outcome()).toMatchObject({ kind: 'abort', message: RUN_ABORTED_MESSAGE })
    expect(t.messages()).toBe(0)
    expect(t.leftListeners()).toBe(0)
  })

  it('reports an unexpected exit with its code', async () => {
    const t = setup('exit')
    expect(await t.outcome()).toMatchObject({
      kind: 'worker-exit',
      message: 'the worker exited unexpectedly (code 7)',
    })
    expect(t.leftListeners()).toBe(0)
  })

  it('reports a worker that exited before the run as an exit, without posting', async () => {
    const t = setup('complete')
    await t.handle.raw.terminate()
    await t.handle.exited
    expect(await t.outcome()).toMatchObject({ kind: 'worker-exit' })
    expect(t.messages()).toBe(0)
  })

  it('fails at the first line past the output budget and delivers nothing after settling', async () => {
    const t = setup('flood', { maxOutputBytes: 35 })
    const outcome = await t.outcome()
    expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
    expect(t.seen).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10)])
    expect(outcome.logs).toEqual(t.seen)
    // The worker posted 100 lines; none reached the session after the run settled.
    expect(t.messages()).toBe(4)
    expect(t.leftListeners()).toBe(0)
  })

  it('runs the timeout hook once, then fails as timeout and kills the worker', async () => {
    const t = setup('spin', { maxWallMs: 50 })
    const outcome = await t.outcome()
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
    expect(t.timeouts()).toBe(1)
    expect(t.handle.hasExited()).toBe(true)
    expect(t.leftListeners()).toBe(0)
  })

  it('settles once: a later fail or completion changes nothing', async () => {
    const t = setup('idle')
    const pending = t.outcome()
    t.run.fail('exception', 'first')
    t.run.fail('timeout', 'second')
    t.run.complete(DoneStatus.OK, 'null')
    expect(await pending).toMatchObject({ kind: 'exception', message: 'first' })
  })
})
