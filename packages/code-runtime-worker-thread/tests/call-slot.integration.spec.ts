/**
 * QuickJS runs with the call slot: sequential calls reach the host without a message, batches
 * that cannot use the slot (too large, or written while an earlier call is still unaccepted)
 * arrive as `calls-json` messages without overtaking or being overtaken, an abort while the
 * worker is blocked waiting for a reply ends the run and the thread, and whatever a worker writes
 * into the slot is checked like a message (a hostile worker drives the real run session).
 */
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { resolveWorkerThreadRuntimeConfig } from '../src/config'
import { createWorkerThreadRuntime } from '../src/index'
import { spawnWorkerHandle, type WorkerHandle } from '../src/pool/worker-handle'
import { CALL_SLOT_BYTES, createCallSlot } from '../src/protocol/call-slot'
import { createReplySlot } from '../src/protocol/reply-slot'
import { runSession } from '../src/run/run-session'
import { wrapProgram } from '../src/strip/wrap-program'
import { fakeHost, request } from './fixtures/host'

const config = resolveWorkerThreadRuntimeConfig({ engine: 'quickjs', maxWallMs: 120_000 })

/** Run `program` on a fresh QuickJS worker, counting the call messages the worker posts. */
async function runCounting(program: string, tools: Parameters<typeof fakeHost>[0], signal?: AbortSignal) {
  const handle = spawnWorkerHandle({ engine: 'quickjs', maxOldGenerationSizeMb: 64, computeMs: 30_000 })
  expect(handle.callSlot).toBeInstanceOf(SharedArrayBuffer)
  expect(await handle.booted).toEqual({ ok: true })
  const posted: Record<string, number> = {}
  handle.worker.on('message', (message: { k?: unknown }) => {
    const kind = String(message?.k)
    posted[kind] = (posted[kind] ?? 0) + 1
  })
  const { host, calls } = fakeHost(tools, signal)
  const outcome = await runSession(handle, {
    source: wrapProgram(program),
    toolNames: Object.keys(tools),
    host,
    config,
    shutdown: new AbortController().signal,
  })
  await handle.exited
  return { outcome, posted, calls }
}

describe('QuickJS call slot', () => {
  it('carries sequential calls without a single call message', async () => {
    const { outcome, posted, calls } = await runCounting(
      'let sum = 0\nfor (let i = 0; i < 300; i++) sum += await tools.add({ i })\nreturn sum',
      { add: (args) => (args as { i: number }).i },
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: (299 * 300) / 2 })
    expect(calls).toHaveLength(300)
    expect(posted['calls-json'] ?? 0).toBe(0)
    expect(posted.calls ?? 0).toBe(0)
  })

  it('keeps calls in order when large ones and batches travel as messages', async () => {
    const big = 'y'.repeat(CALL_SLOT_BYTES + 100)
    const { outcome, posted, calls } = await runCounting(
      `const big = ${JSON.stringify(big)}
      const first = await Promise.all([tools.echo({ n: 0 }), tools.echo({ n: 1, big }), tools.echo({ n: 2 })])
      const next = await tools.echo({ n: 3, big })
      const last = await tools.echo({ n: 4 })
      const none = await tools.echo()
      return [...first, next, last, none]`,
      { echo: (args) => (args === undefined ? 'none' : (args as { n: number }).n) },
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: [0, 1, 2, 3, 4, 'none'] })
    expect(calls.map((call) => (call.args as { n?: number } | undefined)?.n)).toEqual([
      0,
      1,
      2,
      3,
      4,
      undefined,
    ])
    expect(calls[1]!.args).toEqual({ n: 1, big })
    // The Promise.all batch (written while call 0 was unaccepted) and the large call: messages.
    expect(posted['calls-json']).toBe(2)
  })

  it('never lets a call overtake a line the program printed before it', async () => {
    const order: string[] = []
    const handle = spawnWorkerHandle({ engine: 'quickjs', maxOldGenerationSizeMb: 64, computeMs: 30_000 })
    expect(await handle.booted).toEqual({ ok: true })
    const outcome = await runSession(handle, {
      source: wrapProgram(
        `for (let i = 0; i < 50; i++) { console.log('line ' + i); await tools.echo({ i }) }
        return 1`,
      ),
      toolNames: ['echo'],
      host: {
        signal: new AbortController().signal,
        call: async (_name, args) => {
          order.push(`call ${(args as { i: number }).i}`)
          return null
        },
        onLog: (line) => order.push(line),
      },
      config,
      shutdown: new AbortController().signal,
    })
    await handle.exited
    expect(outcome).toMatchObject({ ok: true, result: 1 })
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => [`line ${i}`, `call ${i}`]).flat())
  })

  it('ends a run aborted while the worker waits for a reply, and its thread with it', async () => {
    const controller = new AbortController()
    const { outcome, calls } = await runCounting(
      'await tools.hang({})\nreturn 1',
      {
        hang: () => {
          controller.abort()
          return new Promise(() => {})
        },
      },
      controller.signal,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'abort' })
    expect(calls).toHaveLength(1)
  })

  it('leaves no worker behind after aborted runs through the runtime', async () => {
    const runtime = createWorkerThreadRuntime({ engine: 'quickjs', warmWorkers: 1 })
    try {
      for (let i = 0; i < 3; i++) {
        const controller = new AbortController()
        const { host } = fakeHost(
          {
            hang: () => {
              controller.abort()
              return new Promise(() => {})
            },
          },
          controller.signal,
        )
        const outcome = await runtime.run(request('await tools.hang({})\nreturn 1', ['hang']), host)
        expect(outcome).toMatchObject({ ok: false, kind: 'abort' })
      }
      await runtime.whenIdle()
      expect(runtime.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0, liveWorkers: 1 })
    } finally {
      await runtime.dispose()
    }
    expect(runtime.stats().liveWorkers).toBe(0)
  })

  it('starts booting a replacement as soon as a run takes a warm worker', async () => {
    const runtime = createWorkerThreadRuntime({ engine: 'quickjs', warmWorkers: 2 })
    try {
      let seen: ReturnType<typeof runtime.stats> | undefined
      const { host } = fakeHost({
        probe: async () => {
          // The run is still going: its worker is running and both warm slots are filled again.
          await new Promise((resolve) => setImmediate(resolve))
          seen = runtime.stats()
          return 1
        },
      })
      expect(await runtime.run(request('return await tools.probe({})', ['probe']), host)).toMatchObject({
        ok: true,
      })
      expect(seen).toMatchObject({ runningWorkers: 1, warmWorkers: 2 })
    } finally {
      await runtime.dispose()
    }
  })
})

/** A worker that, when the run starts, runs `onRun` with `slot` (an Int32Array over its call slot) in scope. */
async function runHostileSlotWriter(onRun: string) {
  const callSlot = createCallSlot()
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
    const slot = new Int32Array(workerData.callSlot, 0, 4)
    const bytes = Buffer.from(workerData.callSlot, 16)
    const write = (text, length = Buffer.byteLength(text)) => {
      bytes.write(text)
      Atomics.store(slot, 1, length)
      Atomics.add(slot, 0, 1)
      Atomics.notify(slot, 0)
    }
    parentPort.on('message', (message) => { if (message.k === 'run') { ${onRun} } })
    parentPort.postMessage({ k: 'ready' })`,
    { eval: true, workerData: { callSlot } },
  )
  let exited = false
  const exitedPromise = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      exited = true
      resolve(code)
    }),
  )
  await new Promise((resolve) => worker.once('message', resolve))
  const handle: WorkerHandle = {
    worker,
    booted: Promise.resolve({ ok: true }),
    exited: exitedPromise,
    hasExited: () => exited,
    lastError: () => undefined,
    replySlot: createReplySlot(),
    callSlot,
  }
  const { host, calls } = fakeHost({ echo: async () => 1 })
  const outcome = await runSession(handle, {
    source: '',
    toolNames: ['echo'],
    host,
    config,
    shutdown: new AbortController().signal,
  })
  await handle.exited
  return { outcome, calls }
}

describe('call slot against a hostile worker', () => {
  it('fails the run on text that is not a call batch, whatever the length word says', async () => {
    for (const onRun of [
      `write('not json')`,
      `write('[1,"echo",[]]', -1)`,
      `write('[1,"echo",[]]', 1 << 30)`,
      `write('[1,"echo",{"no":"wrapper"}]')`,
      `write('[1,"eval",[]]')`,
      `write('[2,"echo",[]]')`,
    ]) {
      const { outcome, calls } = await runHostileSlotWriter(onRun)
      expect(outcome).toMatchObject({ ok: false, kind: 'invalid-output', message: /protocol violation/ })
      expect(calls).toHaveLength(0)
    }
  })

  it('fails the run as unreadable on nesting past the limit, without parsing it', async () => {
    const { outcome, calls } = await runHostileSlotWriter(
      `const d = 30000; write('[1,"echo",[' + '['.repeat(d) + ']'.repeat(d) + ']]')`,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'exception', message: /could not be read on the host/ })
    expect(calls).toHaveLength(0)
  })

  it('fails only the call whose argument text is not JSON: the tool is never reached', async () => {
    // The frame is well formed, so the batch is read; the arguments are handed on as text and
    // refused when parsed (here by the runtime for a host without callJson).
    const { outcome, calls } = await runHostileSlotWriter(
      `write('[1,"echo",[{"a":tru}]]')
      const wait = () => { if (Atomics.load(slot, 2) === 1) parentPort.postMessage({ k: 'done', s: 0, v: '7' }); else setTimeout(wait, 1) }
      wait()`,
    )
    expect(outcome).toMatchObject({ ok: true, result: 7 })
    expect(calls).toHaveLength(0)
  })

  it('answers a call a worker writes into the slot, checked like any other', async () => {
    const { outcome, calls } = await runHostileSlotWriter(
      `write('[1,"echo",[{"a":1}]]')
      const wait = () => { if (Atomics.load(slot, 2) === 1) parentPort.postMessage({ k: 'done', s: 0, v: '7' }); else setTimeout(wait, 1) }
      wait()`,
    )
    expect(outcome).toMatchObject({ ok: true, result: 7 })
    expect(calls).toEqual([{ name: 'echo', args: { a: 1 } }])
  })
})
