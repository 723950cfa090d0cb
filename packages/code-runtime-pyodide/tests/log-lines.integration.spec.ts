/**
 * Log lines are bounded in number as well as bytes (issue 21, symptom 4): two million empty
 * `print()` lines cost a byte each, far under `maxOutputBytes`, but each was a message the host
 * had to receive, forward and keep — seconds of host stall. `maxLogLines` means here what it
 * means in `@dsh/code-runtime-worker-thread`: the line that would be line `maxLogLines + 1` ends
 * the run as `output-limit`, in the worker, so the host receives at most `maxLogLines` lines and
 * the completion.
 */
import { EventEmitter } from 'node:events'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { fakeHost, runRequest as request } from '@dsh/tools-codemode/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

// Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose is a
// whole boot for nothing.
const runtime = createPyodideRuntime({ warmWorkers: 0, computeMs: 120_000, maxWallMs: 300_000 })
const small = createPyodideRuntime({ warmWorkers: 0, computeMs: 60_000, maxWallMs: 120_000, maxLogLines: 3 })
afterAll(() => Promise.all([runtime.dispose(), small.dispose()]))

const LIMIT_3 = 'output exceeded maxLogLines (3 lines)'

/** Count the run messages (`log`, `call`, `done`) every worker delivers to the host while `work` runs. */
async function countingRunMessages<T>(work: () => Promise<T>): Promise<{ value: T; messages: number }> {
  const prototype = Worker.prototype as unknown as { emit: EventEmitter['emit'] }
  let messages = 0
  prototype.emit = function emit(this: EventEmitter, event: string | symbol, ...args: unknown[]) {
    const kind = (args[0] as { k?: unknown } | null | undefined)?.k
    if (event === 'message' && (kind === 'log' || kind === 'call' || kind === 'done')) messages++
    return EventEmitter.prototype.emit.call(this, event, ...args)
  }
  try {
    return { value: await work(), messages }
  } finally {
    Reflect.deleteProperty(prototype, 'emit')
  }
}

describe('maxLogLines', () => {
  it('two million empty print() lines end as output-limit after 10 000; the host gets 10 001 messages', async () => {
    const { host, streamed, calls } = fakeHost({ echo: () => 1 })
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const { value: outcome, messages } = await countingRunMessages(() =>
      runtime.run(
        request('for i in range(2_000_000):\n    print()\nawait tools.echo({})\nreturn "done"', ['echo']),
        host,
      ),
    )
    delay.disable()
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'output-limit',
      message: 'output exceeded maxLogLines (10000 lines)',
    })
    expect(outcome.logs).toHaveLength(10_000)
    expect(outcome.logs.every((line) => line === '')).toBe(true)
    expect(streamed).toHaveLength(10_000)
    // 10 000 lines and the completion; the line past the cap is never posted.
    expect(messages).toBe(10_001)
    // Nothing of the program ran after the line that ended it.
    expect(calls).toEqual([])
    // The host event loop stayed responsive (a generous bound: the machine is shared).
    expect(delay.max / 1e6).toBeLessThan(2_000)
    await runtime.whenIdle()
  })

  it('keeps the first maxLogLines lines; the line past them ends the run, which runs no further', async () => {
    const { host, calls } = fakeHost({ echo: () => 1 })
    const outcome = await small.run(
      request('for i in range(5):\n    print(i)\nawait tools.echo({})\nreturn [1, 2]', ['echo']),
      host,
    )
    expect(outcome).toEqual({ ok: false, kind: 'output-limit', message: LIMIT_3, logs: ['0', '1', '2'] })
    expect(calls).toEqual([])
    await small.whenIdle()
  })

  it('counts lines to stderr (print(file=...), write, .buffer) with those to stdout', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(
      request(
        'import sys\nprint("a")\nprint("b", file=sys.stderr)\nsys.stderr.buffer.write(b"c\\n")\nsys.stderr.write("d\\n")\nreturn 1',
      ),
      host,
    )
    expect(outcome).toEqual({ ok: false, kind: 'output-limit', message: LIMIT_3, logs: ['a', 'b', 'c'] })
    await small.whenIdle()
  })

  it('a program that prints exactly maxLogLines lines succeeds, an unterminated last line included', async () => {
    const { host } = fakeHost({})
    const exact = await small.run(request('for i in range(3):\n    print(i)\nreturn "ok"'), host)
    expect(exact).toEqual({ ok: true, result: 'ok', logs: ['0', '1', '2'] })
    const open = await small.run(request('import sys\nsys.stdout.write("a\\nb\\nc")\nreturn 1'), host)
    expect(open).toEqual({ ok: true, result: 1, logs: ['a', 'b', 'c'] })
    await small.whenIdle()
  })

  it('an unterminated line left when the program ends is a line past the cap like any other', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(request('import sys\nsys.stdout.write("a\\nb\\nc\\nd")\nreturn 1'), host)
    expect(outcome).toEqual({ ok: false, kind: 'output-limit', message: LIMIT_3, logs: ['a', 'b', 'c'] })
    await small.whenIdle()
  })

  it('a program that would raise later ends at the line past the cap, not with its exception', async () => {
    const { host } = fakeHost({})
    const outcome = await small.run(
      request('for i in range(10):\n    print(i)\nraise ValueError("late")'),
      host,
    )
    expect(outcome).toEqual({ ok: false, kind: 'output-limit', message: LIMIT_3, logs: ['0', '1', '2'] })
    await small.whenIdle()
  })
})
