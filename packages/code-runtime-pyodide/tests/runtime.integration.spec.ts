/**
 * The runtime against real Pyodide in real workers: results, streamed logs, bindings as the
 * Python SDK declares them, tool failures, tracebacks, invalid output, `asyncio.gather` overlap,
 * abort and dispose. One interpreter boots per run (a few seconds each), so programs here check
 * several points at once.
 */

import { FakeToolCallError, fakeHost, runRequest as request } from '@dsh/tools-codemode/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

// Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose is a
// whole boot for nothing.
const runtime = createPyodideRuntime({ warmWorkers: 0, computeMs: 20_000, maxWallMs: 60_000 })
afterAll(() => runtime.dispose())

describe('running Python programs', () => {
  it('returns JSON results, streams print lines and calls tools by attribute and subscript', async () => {
    const { host, calls, streamed } = fakeHost({
      add: (args) => ({ sum: (args as { a: number; b: number }).a + (args as { a: number; b: number }).b }),
      'exotic-name': () => 'exotic',
    })
    const outcome = await runtime.run(
      request(
        [
          'print("start")',
          'r = await tools.add({"a": 1, "b": 2})',
          'print("sum", r["sum"])',
          'e = await tools["exotic-name"]({})',
          'return {"sum": r["sum"], "exotic": e, "list": [1, 2.5, None, True]}',
        ].join('\n'),
        ['add', 'exotic-name'],
      ),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      logs: ['start', 'sum 3'],
      result: { sum: 3, exotic: 'exotic', list: [1, 2.5, null, true] },
    })
    expect(streamed).toEqual(['start', 'sum 3'])
    expect(calls).toEqual([
      { name: 'add', args: { a: 1, b: 2 } },
      { name: 'exotic-name', args: {} },
    ])
  })

  it('raises ToolCallError with the tool name and message, and maps exceptions to tracebacks without host paths', async () => {
    const { host } = fakeHost({
      fail: () => {
        throw new FakeToolCallError('fail', 'the tool broke')
      },
    })
    const outcome = await runtime.run(
      request(
        [
          'try:',
          '    await tools.fail({})',
          'except ToolCallError as error:',
          '    print(error.tool_name, error.message)',
          'def inner():',
          '    raise ValueError("bad value")',
          'inner()',
        ].join('\n'),
        ['fail'],
      ),
      host,
    )
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.kind).toBe('exception')
    expect(outcome.logs).toEqual(['fail the tool broke'])
    expect(outcome.message).toContain('Traceback (most recent call last):')
    expect(outcome.message).toContain('File "<program>", line 7')
    expect(outcome.message).toContain('File "<program>", line 6, in inner')
    expect(outcome.message).toMatch(/ValueError: bad value$/)
    expect(outcome.message).not.toMatch(/\/(lib|work|home|tmp|usr)\//)
    expect(outcome.message).not.toContain('.py"')
  })

  it('a result that is not lossless JSON ends as invalid-output with the path of the offending value', async () => {
    const { host } = fakeHost({})
    const outcome = await runtime.run(request('return {"a": [1, {"b": {1, 2}}]}'), host)
    expect(outcome).toEqual({
      ok: false,
      kind: 'invalid-output',
      message: 'the result is not JSON: a value of type set at $["a"][1]["b"]',
      logs: [],
    })
    await runtime.whenIdle()
    expect(runtime.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0 })
  })

  it('call limits: oversized arguments raise ToolCallError before leaving the worker; calls past the outstanding cap fail at once', async () => {
    let started = 0
    const { host, calls } = fakeHost({
      echo: (args) => args as never,
      hold: () => {
        started++
        return new Promise(() => {})
      },
    })
    const outcome = await runtime.run(
      request(
        [
          'try:',
          '    await tools.echo({"blob": "x" * (5 * 1024 * 1024)})',
          'except ToolCallError as error:',
          '    print("oversized:", error.message)',
          'shared = ["x" * 1000]',
          'for _ in range(40):',
          '    shared = [shared, shared]',
          'try:',
          '    await tools.echo({"dag": shared})',
          'except ToolCallError as error:',
          '    print("dag:", error.message)',
          'futures = [asyncio.ensure_future(tools.hold({})) for _ in range(300)]',
          'while sum(1 for f in futures if f.done()) < 44:',
          '    await asyncio.sleep(0.01)',
          'refused = sorted({str(f.exception()) for f in futures if f.done()})',
          'return [sum(1 for f in futures if f.done()), refused]',
        ].join('\n'),
        ['echo', 'hold'],
      ),
      host,
    )
    expect(outcome).toMatchObject({
      ok: true,
      logs: [
        'oversized: arguments for echo exceed 4194304 characters of JSON',
        'dag: arguments for echo exceed 4194304 characters of JSON',
      ],
      result: [44, ['too many tool calls outstanding (256); await some first']],
    })
    expect(calls.filter((call) => call.name === 'echo')).toHaveLength(0)
    expect(started).toBe(256)
  })

  it('replies resume the awaiting task at once, yet asyncio scheduling keeps its order and fairness', async () => {
    const { host, calls } = fakeHost({ echo: (args) => args as never })
    const outcome = await runtime.run(
      request(
        [
          // A task spinning on sleep(0) must still let the reply in (no starvation).
          'pending = asyncio.ensure_future(tools.echo({"n": 1}))',
          'spins = 0',
          'while not pending.done():',
          '    spins += 1',
          '    await asyncio.sleep(0)',
          // call_soon callbacks run in FIFO order, interleaved with awaited replies.
          'order = []',
          'loop = asyncio.get_running_loop()',
          'for i in range(3):',
          '    loop.call_soon(order.append, i)',
          'order.append((await tools.echo({"n": 2}))["n"])',
          'await asyncio.sleep(0)',
          'handle = loop.call_soon(order.append, "cancelled")',
          'handle.cancel()',
          'seq = [(await tools.echo({"n": i}))["n"] for i in range(50)]',
          'both = await asyncio.gather(tools.echo({"n": "a"}), tools.echo({"n": "b"}))',
          'return [pending.result(), spins > 0, order, seq == list(range(50)), both]',
        ].join('\n'),
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      logs: [],
      result: [{ n: 1 }, true, [0, 1, 2, 2], true, [{ n: 'a' }, { n: 'b' }]],
    })
    expect(calls).toHaveLength(54)
  })
})
