/**
 * Budgets and endings against real Pyodide in real workers: computeMs through the interrupt
 * buffer (and termination, for a program that swallows the interrupt), maxWallMs, maxOutputBytes
 * (empty lines cost a byte each), the WebAssembly memory cap, abort mid-run and dispose with runs
 * in flight. Every test checks that no worker is left running afterwards.
 */

import { fakeHost, runRequest as request } from '@dsh/tools-codemode/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

// Short busy-time budget, generous wall time: output floods, deep recursion, aborts.
// Interpreters boot on demand: the tests run one at a time, and a warm one left at dispose is a
// whole interpreter boot for nothing. The unbounded recursion below spends its whole budget: it
// reaches the recursion limit of 10**6 frames in about 0.25 s of busy time, then renders a
// traceback a million frames deep (about 18 s). Its test asserts the ending, not the budget's
// size: 1 s is still four times what reaching that depth takes, at half the CPU of 2 s. The
// flood of empty lines ends on maxOutputBytes within a tenth of it.
const runtime = createPyodideRuntime({
  warmWorkers: 0,
  computeMs: 1_000,
  maxWallMs: 60_000,
  maxOutputBytes: 4_096,
})
// A program that swallows the interrupt spins until the host terminates it: every millisecond of
// its budget is a millisecond of CPU, and the test asserts the ending, not the budget's size.
const spinning = createPyodideRuntime({ warmWorkers: 0, computeMs: 300, maxWallMs: 60_000 })
// Generous busy time under a small memory cap; short wall time for a program that only waits.
// Interpreters boot on demand here (the wall clock starts once the program is sent).
const roomy = createPyodideRuntime({ warmWorkers: 0, computeMs: 60_000, maxWallMs: 60_000, maxMemoryMb: 128 })
const hasty = createPyodideRuntime({ warmWorkers: 0, computeMs: 60_000, maxWallMs: 1_500 })
afterAll(() => Promise.all([runtime.dispose(), spinning.dispose(), roomy.dispose(), hasty.dispose()]))

async function settledAndGone(target = runtime): Promise<void> {
  await target.whenIdle()
  expect(target.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0, queuedRuns: 0 })
}

describe('budgets', () => {
  it('a hot loop that swallows the interrupt still ends as timeout (computeMs)', async () => {
    const { host } = fakeHost({})
    const outcome = await spinning.run(
      request(
        [
          'print("start")',
          'while True:',
          '    try:',
          '        while True:',
          '            pass',
          '    except BaseException:',
          '        pass',
        ].join('\n'),
      ),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', logs: ['start'] })
    if (!outcome.ok) expect(outcome.message).toContain('computeMs')
    await settledAndGone(spinning)
  })

  it('a program that waits forever ends as timeout (maxWallMs)', async () => {
    const { host } = fakeHost({})
    const outcome = await hasty.run(request('print("waiting")\nawait asyncio.sleep(3600)'), host)
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', logs: ['waiting'] })
    if (!outcome.ok) expect(outcome.message).toContain('maxWallMs')
    await settledAndGone(hasty)
  })

  it('empty print lines are not free: a flood of them ends as output-limit', async () => {
    const { host, streamed } = fakeHost({})
    const outcome = await runtime.run(request('for i in range(10**8):\n    print()'), host)
    expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
    expect(outcome.logs.length).toBeLessThanOrEqual(4_096)
    expect(streamed.length).toBe(outcome.logs.length)
    await settledAndGone()
  })

  it('allocations past maxMemoryMb raise MemoryError inside Python; the host is untouched', async () => {
    const { host } = fakeHost({})
    const outcome = await roomy.run(
      request(
        [
          'out = {}',
          'for name, make in [("bytearray(2**30)", lambda: bytearray(2**30)), ("bytearray(2**31)", lambda: bytearray(2**31)),',
          '                   ("x * 10**10", lambda: "x" * 10**10), ("[0] * 10**9", lambda: [0] * 10**9)]:',
          '    try:',
          '        make()',
          '        out[name] = "allocated"',
          '    except BaseException as error:',
          '        out[name] = type(error).__name__',
          'chunks = []',
          'try:',
          '    while True:',
          '        chunks.append(bytearray(10**7))',
          'except MemoryError:',
          '    out["grown"] = len(chunks)',
          'chunks.clear()',
          'def deep(n):',
          '    return deep(n + 1)',
          'try:',
          '    deep(0)',
          'except RecursionError:',
          '    out["recursion"] = "RecursionError"',
          'return out',
        ].join('\n'),
      ),
      host,
    )
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    const result = outcome.result as Record<string, string | number>
    expect(result['bytearray(2**30)']).toBe('MemoryError')
    expect(['MemoryError', 'OverflowError']).toContain(result['bytearray(2**31)'])
    expect(['MemoryError', 'OverflowError']).toContain(result['x * 10**10'])
    expect(result['[0] * 10**9']).toBe('MemoryError')
    // 10 MB chunks under a 128 MiB cap (the interpreter itself uses part of it).
    expect(result.grown).toBeGreaterThan(0)
    expect(result.grown).toBeLessThan(14)
    expect(result.recursion).toBe('RecursionError')
    await settledAndGone(roomy)
  })

  it('unbounded recursion past the stack ends the run (exception, or timeout first), not the host', async () => {
    const { host } = fakeHost({})
    const outcome = await runtime.run(
      request('import sys\nsys.setrecursionlimit(10**6)\ndef deep(n):\n    return deep(n + 1)\ndeep(0)'),
      host,
    )
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(['exception', 'timeout']).toContain(outcome.kind)
    await settledAndGone()
  })
})

describe('abort and dispose', () => {
  it('aborting the host signal mid-run ends the run as abort and the worker is gone', async () => {
    const controller = new AbortController()
    let called = 0
    const { host } = fakeHost(
      {
        hang: () => {
          called++
          controller.abort()
          return new Promise(() => {})
        },
      },
      controller.signal,
    )
    const outcome = await runtime.run(
      request('print("before")\nawait tools.hang({})\nprint("after")', ['hang']),
      host,
    )
    expect(called).toBe(1)
    expect(outcome).toMatchObject({ ok: false, kind: 'abort', logs: ['before'] })
    await settledAndGone()
  })

  it('dispose with runs in flight ends them as abort and awaits every worker exit', async () => {
    const local = createPyodideRuntime({ warmWorkers: 2, computeMs: 60_000, maxWallMs: 60_000 })
    let called = 0
    // Both programs have reached their tool call: one waits on it, the other spins after it.
    let bothCalled: () => void = () => {}
    const reached = new Promise<void>((resolve) => {
      bothCalled = resolve
    })
    const count = () => {
      if (++called === 2) bothCalled()
      return called
    }
    const waiting = fakeHost({
      hang: () => {
        count()
        return new Promise(() => {})
      },
    })
    const spins = fakeHost({ mark: count })
    const runs = [
      local.run(request('await tools.hang({})', ['hang']), waiting.host),
      local.run(request('await tools.mark({})\nwhile True:\n    pass', ['mark']), spins.host),
    ]
    await reached
    expect(called).toBe(2)
    await local.dispose()
    expect(local.stats()).toMatchObject({ liveWorkers: 0, runningWorkers: 0, warmWorkers: 0 })
    const outcomes = await Promise.all(runs)
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: false, kind: 'abort' })
    const late = await local.run(request('return 1'), fakeHost({}).host)
    expect(late).toMatchObject({ ok: false, kind: 'abort' })
  })
})
