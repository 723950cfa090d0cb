/**
 * The host enforces its limits by itself, whatever the worker does: a hostile (or simply
 * different) worker speaking the protocol is driven through the real run session.
 */
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { describe, expect, it } from 'vitest'
import { resolveWorkerThreadRuntimeConfig } from '../src/config'
import { spawnWorkerHandle } from '../src/pool/worker-handle'
import { runSession } from '../src/run/run-session'
import { fakeHost } from './fixtures/host'
import { countLargeParses } from './fixtures/loop-probe'

const baseConfig = { maxOutputBytes: 50_000, maxLogLines: 1_000, maxWallMs: 600_000 }
const config = resolveWorkerThreadRuntimeConfig(baseConfig)

/** Run a worker whose reaction to the `run` message is `onRun` (worker-side JavaScript). */
async function runHostile(
  onRun: string,
  overrides: Parameters<typeof resolveWorkerThreadRuntimeConfig>[0] = {},
  onEcho: () => void = () => {},
): Promise<CodeRunOutcome & { streamed: number }> {
  const handle = spawnWorkerHandle({
    maxOldGenerationSizeMb: 64,
    source: `const { parentPort } = require('node:worker_threads')
      parentPort.on('message', (message) => { if (message.k === 'run') { ${onRun} } })
      parentPort.postMessage({ k: 'ready' })`,
  })
  expect(await handle.booted).toEqual({ ok: true })
  const { host, streamed } = fakeHost({
    echo: async () => {
      onEcho()
      return 1
    },
  })
  const outcome = await runSession(handle, {
    source: '',
    toolNames: ['echo'],
    host,
    config: { ...config, ...resolveWorkerThreadRuntimeConfig({ ...baseConfig, ...overrides }) },
    shutdown: new AbortController().signal,
  })
  await handle.exited
  return { ...outcome, streamed: streamed.length }
}

describe('host-side limits against a worker that ignores them', () => {
  it('counts lines against maxLogLines, whatever the batch', async () => {
    const outcome = await runHostile(`parentPort.postMessage({ k: 'logs', l: new Array(20000).fill('') })`)
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'output-limit',
      message: expect.stringMatching(/maxLogLines/),
    })
    expect(outcome.logs).toHaveLength(1_000)
    expect(outcome.streamed).toBe(1_000)
  })

  it('charges every line its bytes plus one against maxOutputBytes', async () => {
    // Lines of 99 bytes cost 100 each: 500 fill maxOutputBytes exactly, the 501st does not fit.
    const outcome = await runHostile(
      `for (let i = 0; i < 3; i++) parentPort.postMessage({ k: 'logs', l: new Array(200).fill('x'.repeat(99)) })`,
    )
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'output-limit',
      message: expect.stringMatching(/maxOutputBytes/),
    })
    expect(outcome.logs).toHaveLength(500)
  })

  it('fails the run at once on a message the host cannot deserialize', async () => {
    const outcome = await runHostile(
      `let v = 1; for (let i = 0; i < 12000; i++) v = [v]; parentPort.postMessage({ k: 'calls', c: [1, 'echo', v] })`,
    )
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'exception',
      message: expect.stringMatching(/could not be read on the host/),
    })
  })

  it('refuses a result over maxValueNodes by scanning its text, never parsing it', async () => {
    const keys = 'Array.from({ length: 300_000 }, (_, i) => JSON.stringify("k" + i) + ":" + i).join(",")'
    const spy = countLargeParses()
    try {
      const outcome = await runHostile(
        `parentPort.postMessage({ k: 'done', s: 0, v: '{' + ${keys} + '}' })`,
        {
          maxOutputBytes: 64 * 1024 * 1024,
        },
      )
      expect(outcome).toMatchObject({
        ok: false,
        kind: 'output-limit',
        message: expect.stringContaining('the result holds more than 20000 JSON values (`maxValueNodes`)'),
      })
    } finally {
      spy.restore()
    }
    expect(spy.count).toBe(0)
  })

  it('refuses call arguments over maxValueNodes or maxValueDepth before the host reads them', async () => {
    let calls = 0
    const spy = countLargeParses()
    try {
      const outcome = await runHostile(
        `const wide = '{' + Array.from({ length: 200_000 }, (_, i) => '"k' + i + '":' + i).join(',') + '}'
        const deep = '['.repeat(300) + ']'.repeat(300)
        const answers = []
        parentPort.on('message', (m) => {
          if (m.k === 'res') answers.push(...m.r)
          if (answers.length === 8) parentPort.postMessage({ k: 'done', s: 0, v: JSON.stringify(answers) })
        })
        parentPort.postMessage({ k: 'calls-json', t: '[1,"echo",[' + wide + '],2,"echo",[' + deep + ']]' })`,
        {},
        () => calls++,
      )
      expect(outcome).toMatchObject({ ok: true })
      expect((outcome as { result: unknown }).result).toEqual([
        1,
        2,
        'echo',
        expect.stringContaining('arguments for echo holds more than 20000 JSON values (`maxValueNodes`)'),
        2,
        2,
        'echo',
        'arguments for echo nests more than 100 levels deep (`maxValueDepth`)',
      ])
    } finally {
      spy.restore()
    }
    expect({ calls, parses: spy.count }).toEqual({ calls: 0, parses: 0 })
  })

  it('refuses malformed log batches as protocol violations', async () => {
    const outcome = await runHostile(`parentPort.postMessage({ k: 'logs', l: ['ok', 1] })`)
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'invalid-output',
      message: expect.stringMatching(/protocol violation/),
    })
  })
})
