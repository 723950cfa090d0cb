/**
 * Log lines are bounded in number as well as bytes (issue 21, symptom 4): two million empty
 * `print()` lines cost a byte each, far under `maxOutputBytes`, but each was a message the host
 * had to receive, forward and keep — seconds of host stall. Past `maxLogLines` lines are dropped
 * inside the worker and counted; one marker line says how many.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fakeHost, runRequest as request } from '@dsh/tools-codemode/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

const runtime = createPyodideRuntime({ warmWorkers: 1, computeMs: 120_000, maxWallMs: 300_000 })
const small = createPyodideRuntime({ warmWorkers: 0, computeMs: 60_000, maxWallMs: 120_000, maxLogLines: 3 })
afterAll(() => Promise.all([runtime.dispose(), small.dispose()]))

describe('maxLogLines', () => {
  it('two million empty print() lines reach the host as 10 000 lines and one marker; the run completes', async () => {
    const { host, streamed } = fakeHost({})
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const outcome = await runtime.run(request('for i in range(2_000_000):\n    print()\nreturn "done"'), host)
    delay.disable()
    expect(outcome).toMatchObject({ ok: true, result: 'done' })
    expect(outcome.logs).toHaveLength(10_001)
    expect(outcome.logs.slice(0, 10_000).every((line) => line === '')).toBe(true)
    expect(outcome.logs[10_000]).toBe(
      '[1990000 more log lines dropped: a run logs at most maxLogLines (10000) lines]',
    )
    expect(streamed).toHaveLength(10_001)
    // The host event loop stayed responsive (a generous bound: the machine is shared).
    expect(delay.max / 1e6).toBeLessThan(2_000)
    await runtime.whenIdle()
  })

  it('keeps the first lines and the result; the marker counts every dropped line of every stream', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(
      request('import sys\nfor i in range(5):\n    print(i)\nsys.stderr.write("e\\n" * 7)\nreturn [1, 2]'),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      result: [1, 2],
      logs: ['0', '1', '2', '[9 more log lines dropped: a run logs at most maxLogLines (3) lines]'],
    })
    await small.whenIdle()
  })

  it('a line left open when the drops begin, or written after, is counted once', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(
      request('import sys\nsys.stdout.write("a\\nb\\nc\\nd\\ne")\nprint("f", end="")\nreturn 1'),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      result: 1,
      logs: ['a', 'b', 'c', '[2 more log lines dropped: a run logs at most maxLogLines (3) lines]'],
    })
    await small.whenIdle()
  })

  it('a failing run still reports its dropped lines', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(
      request('for i in range(10):\n    print(i)\nraise ValueError("late")'),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'exception' })
    expect(outcome.logs).toEqual([
      '0',
      '1',
      '2',
      '[7 more log lines dropped: a run logs at most maxLogLines (3) lines]',
    ])
    if (!outcome.ok) expect(outcome.message).toContain('ValueError: late')
    await small.whenIdle()
  })
})
