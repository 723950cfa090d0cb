/**
 * The host bounds what a Python run's worker posts, whatever the worker checked: the program
 * shares the worker's interpreter, so its own check is not a boundary. A worker thread speaking
 * the protocol is driven through the real run session.
 */
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { fakeHost } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'
import { resolvePyodideRuntimeConfig } from '../src/config'
import { memoryBudget } from '../src/memory-budget'
import type { WorkerHandle } from '../src/pool/worker-handle'
import { runSession } from '../src/run/run-session'

/** Run a worker whose reaction to the `run` message is `onRun` (worker-side JavaScript). */
async function runHostile(onRun: string, onEcho: () => void = () => {}): Promise<CodeRunOutcome> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads')
    parentPort.on('message', (message) => { if (message.k === 'run') { ${onRun} } })`,
    { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } },
  )
  let exited = false
  const exit = once(worker, 'exit').then(([code]) => {
    exited = true
    return code as number
  })
  const handle: WorkerHandle = {
    worker,
    interrupt: new Int32Array(new SharedArrayBuffer(4)),
    booted: Promise.resolve({ ok: true, value: { fromSnapshot: false } }) as WorkerHandle['booted'],
    exited: exit,
    hasExited: () => exited,
    lastError: () => undefined,
  }
  const { host } = fakeHost({
    echo: async () => {
      onEcho()
      return 1
    },
  })
  const config = resolvePyodideRuntimeConfig({ maxWallMs: 600_000 })
  const outcome = await runSession(handle, {
    source: '',
    toolNames: ['echo'],
    host,
    config,
    budget: memoryBudget(config),
    shutdown: new AbortController().signal,
  })
  await handle.exited
  return outcome
}

/** Count the host's `JSON.parse` calls on texts over 100,000 characters while `work` runs. */
async function countingLargeParses<T>(work: () => Promise<T>): Promise<{ value: T; parses: number }> {
  const parse = JSON.parse
  let parses = 0
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (typeof text === 'string' && text.length > 100_000) parses++
    return parse(text, reviver)
  }) as typeof JSON.parse
  try {
    return { value: await work(), parses }
  } finally {
    JSON.parse = parse
  }
}

const WIDE = `'{' + Array.from({ length: 300_000 }, (_, i) => '"k' + i + '":' + i).join(',') + '}'`

describe('host-side value limits against a Python worker that skips them', () => {
  it('refuses a result over maxValueNodes by scanning its text, never parsing it', async () => {
    const { value, parses } = await countingLargeParses(() =>
      runHostile(`parentPort.postMessage({ k: 'done', s: 0, v: ${WIDE} })`),
    )
    expect(value).toMatchObject({
      ok: false,
      kind: 'output-limit',
      message: expect.stringContaining('the result holds more than 20000 JSON values (`maxValueNodes`)'),
    })
    expect(parses).toBe(0)
  })

  it('answers a call over maxValueNodes with a refusal; the host never parses it, no tool runs', async () => {
    let calls = 0
    const { value, parses } = await countingLargeParses(() =>
      runHostile(
        `parentPort.on('message', (m) => {
          if (m.k === 'res') parentPort.postMessage({ k: 'done', s: 0, v: JSON.stringify([m.ok, m.a, m.b]) })
        })
        parentPort.postMessage({ k: 'call', i: 1, n: 'echo', a: ${WIDE.replace('300_000', '200_000')} })`,
        () => calls++,
      ),
    )
    expect(value).toMatchObject({
      ok: true,
      result: [
        false,
        'echo',
        expect.stringContaining('arguments for echo holds more than 20000 JSON values'),
      ],
    })
    expect({ calls, parses }).toEqual({ calls: 0, parses: 0 })
  })
})

describe('host-side maxLogLines against a Python worker that skips it', () => {
  const flood = (lines: number) =>
    `for (let i = 0; i < ${lines}; i++) parentPort.postMessage({ k: 'log', l: String(i) })
    parentPort.postMessage({ k: 'done', s: 0, v: '1' })`

  it('admits exactly maxLogLines lines: the next one ends the run as output-limit', async () => {
    const outcome = await runHostile(flood(10_001))
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'output-limit',
      message: 'output exceeded maxLogLines (10000 lines)',
    })
    expect(outcome.logs).toHaveLength(10_000)
    expect(outcome.logs.at(-1)).toBe('9999')
  })

  it('lets a worker that posts exactly maxLogLines lines complete', async () => {
    const outcome = await runHostile(flood(10_000))
    expect(outcome).toMatchObject({ ok: true, result: 1 })
    expect(outcome.logs).toHaveLength(10_000)
  })
})
