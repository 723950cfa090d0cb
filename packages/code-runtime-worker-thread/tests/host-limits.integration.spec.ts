/**
 * Limits the host enforces on what a worker sends: every log line costs at least one byte, and
 * a message the host cannot deserialize fails the run at once instead of losing a call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { fakeHost, request } from './fixtures/host'

describe.each(ENGINES)('host limits (%s)', (engine) => {
  let runtime: WorkerThreadRuntime
  beforeAll(() => {
    // maxWallMs is far beyond the test timeout: a lost call would make the test time out.
    runtime = createWorkerThreadRuntime({
      engine,
      warmWorkers: 1,
      maxOutputBytes: 10_000,
      maxWallMs: 600_000,
    })
  })
  afterAll(() => runtime.dispose())

  describe('log accounting', () => {
    it('stops a flood of empty lines at maxOutputBytes, one byte per line', async () => {
      const { host, streamed } = fakeHost({})
      const outcome = await runtime.run(request('for (let i = 0; i < 3e6; i++) console.log()'), host)
      expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
      if (outcome.ok) return
      expect(outcome.logs).toHaveLength(10_000)
      expect(outcome.logs.every((line) => line === '')).toBe(true)
      expect(streamed).toHaveLength(10_000)
    })

    it('counts the line break of every line, whatever its content', async () => {
      for (const [text, cost] of [
        ['ab', 3],
        ['€', 4],
      ] as const) {
        const { host } = fakeHost({})
        const outcome = await runtime.run(
          request(`for (let i = 0; i < 1e6; i++) console.log(${JSON.stringify(text)})`),
          host,
        )
        expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
        if (!outcome.ok) expect(outcome.logs).toHaveLength(Math.floor(10_000 / cost))
      }
    })

    it('keeps every line of a flood below the limit, in order', async () => {
      const { host } = fakeHost({})
      const outcome = await runtime.run(
        request('for (let i = 0; i < 2000; i++) console.log(i)\nreturn 1'),
        host,
      )
      expect(outcome).toMatchObject({ ok: true, result: 1 })
      expect(outcome.logs).toEqual(Array.from({ length: 2000 }, (_, i) => String(i)))
    })
  })

  describe('log line count', () => {
    it('stops a flood at maxLogLines, whatever the lines cost in bytes', async () => {
      const counted = createWorkerThreadRuntime({ engine, warmWorkers: 0, maxLogLines: 500 })
      try {
        for (const line of ['', 'x', '"a longer line"']) {
          const { host, streamed } = fakeHost({})
          const outcome = await counted.run(
            request(`for (let i = 0; i < 1e6; i++) console.log(${JSON.stringify(line)})`),
            host,
          )
          expect(outcome).toMatchObject({
            ok: false,
            kind: 'output-limit',
            message: expect.stringMatching(/maxLogLines \(500 lines\)/),
          })
          expect(outcome.logs).toHaveLength(500)
          expect(streamed).toHaveLength(500)
        }
        const { host } = fakeHost({})
        expect(
          await counted.run(request('for (let i = 0; i < 500; i++) console.log(i)\nreturn 1'), host),
        ).toMatchObject({
          ok: true,
          result: 1,
        })
      } finally {
        await counted.dispose()
      }
    })
  })

  describe('messages the host cannot read', () => {
    it('fails the run at once when call arguments are too deep to deserialize', async () => {
      for (const depth of [4_000, 8_000, 12_000, 100_000]) {
        const { host, calls } = fakeHost({ echo: async () => 1 })
        const outcome = await runtime.run(
          request(
            `let v: any = 1\nfor (let i = 0; i < ${depth}; i++) v = [v]\nreturn await tools.echo({ v })`,
            ['echo'],
          ),
          host,
        )
        // The worker refuses them past maxValueDepth (a ToolCallError), or, past what it can
        // clone, as not cloneable; or the host fails the run on 'messageerror'; never a lost call
        // waiting for maxWallMs.
        expect(outcome).toMatchObject({ ok: false, kind: 'exception' })
        if (!outcome.ok)
          expect(outcome.message).toMatch(
            /nest more than 100 levels deep \(`maxValueDepth`\)|nests more than 100 levels deep \(`maxValueDepth`\)|could not be read on the host|not JSON-cloneable|could not be sent: Maximum call stack/,
          )
        expect(calls).toHaveLength(0)
      }
      await runtime.whenIdle()
      expect(runtime.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0 })
    })
  })
})
