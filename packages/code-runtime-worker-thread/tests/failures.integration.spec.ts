import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { fakeHost, request } from './fixtures/host'

let runtime: WorkerThreadRuntime

const never = () => new Promise<never>(() => {})
const tools = { slow: never, echo: async (args: unknown) => args as never }

async function expectNoWorkerRunning() {
  expect(runtime.stats().runningWorkers).toBe(0)
  await runtime.whenIdle()
  expect(runtime.stats().exitingWorkers).toBe(0)
  expect(runtime.stats().liveWorkers).toBeLessThanOrEqual(1)
}

describe.each(ENGINES)('failure kinds (%s)', (engine) => {
  beforeAll(() => {
    runtime = createWorkerThreadRuntime({
      engine,
      warmWorkers: 1,
      // The hot loops below only end on it, and their tests assert the kind (and that the
      // message names computeMs), not the number; the other programs need a few ms of it.
      computeMs: 400,
      // Far above computeMs: on a loaded machine a hot loop's busy time grows slower than the
      // wall clock, and the compute budget (not the wall budget) must be what ends it.
      maxWallMs: 60_000,
      maxOutputBytes: 4_096,
      maxOldGenerationSizeMb: 32,
    })
  })
  afterAll(() => runtime.dispose())

  it('exception: an uncaught throw, without spawning for a type-strip failure', async () => {
    const { host } = fakeHost(tools)
    expect(await runtime.run(request('console.log("before")\nthrow new TypeError("bad")'), host)).toEqual({
      ok: false,
      kind: 'exception',
      message: 'TypeError: bad',
      logs: ['before'],
    })
    await runtime.whenIdle()
    const before = runtime.stats().liveWorkers
    expect(await runtime.run(request('enum E { A }'), host)).toMatchObject({ ok: false, kind: 'exception' })
    expect(runtime.stats().liveWorkers).toBe(before)
  })

  it('exception: a throw inside a timer callback, and a thrown non-error', async () => {
    const { host } = fakeHost(tools)
    expect(
      await runtime.run(
        request('setTimeout(() => { throw new Error("late") }, 1)\nawait new Promise(() => {})'),
        host,
      ),
    ).toMatchObject({
      kind: 'exception',
      message: 'Error: late',
    })
    expect(await runtime.run(request('throw "plain"'), host)).toMatchObject({
      kind: 'exception',
      message: 'Uncaught "plain"',
    })
  })

  it('timeout: a hot loop exhausts computeMs, and logs printed before the kill survive', async () => {
    const { host, streamed } = fakeHost(tools)
    const outcome = await runtime.run(request('console.log("starting")\nwhile (true) {}'), host)
    expect(outcome).toEqual({
      ok: false,
      kind: 'timeout',
      message: expect.stringMatching(/computeMs/),
      logs: ['starting'],
    })
    expect(streamed).toEqual(['starting'])
    await expectNoWorkerRunning()
  })

  it('timeout: a hot loop cannot hide behind a pending tool call', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request('const pending = tools.slow({})\nwhile (true) {}\nawait pending', ['slow']),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', message: expect.stringMatching(/computeMs/) })
  })

  it('timeout: a never-settling promise exhausts maxWallMs, not computeMs', async () => {
    // Still twice computeMs: a wait counted as compute time would hit computeMs first.
    const walled = createWorkerThreadRuntime({ engine, warmWorkers: 0, computeMs: 250, maxWallMs: 500 })
    try {
      const { host } = fakeHost(tools)
      const outcome = await walled.run(request('await tools.slow({})', ['slow']), host)
      expect(outcome).toMatchObject({
        ok: false,
        kind: 'timeout',
        message: expect.stringMatching(/maxWallMs/),
      })
      expect(walled.stats().runningWorkers).toBe(0)
      await walled.whenIdle()
      expect(walled.stats().exitingWorkers).toBe(0)
    } finally {
      await walled.dispose()
    }
  })

  it('abort: host.signal ends the run mid-call, keeps its logs, and waits for the worker', async () => {
    const controller = new AbortController()
    const { host, calls } = fakeHost(
      {
        slow: () => {
          controller.abort()
          return never()
        },
      },
      controller.signal,
    )
    const outcome = await runtime.run(
      request('console.log("one")\nawait tools.slow({})\nconsole.log("two")', ['slow']),
      host,
    )
    expect(outcome).toEqual({ ok: false, kind: 'abort', message: 'the run was aborted', logs: ['one'] })
    expect(calls).toHaveLength(1)
    await expectNoWorkerRunning()
  })

  it('abort: an already aborted signal uses no worker', async () => {
    const controller = new AbortController()
    controller.abort()
    const { host } = fakeHost(tools, controller.signal)
    expect(await runtime.run(request('return 1'), host)).toMatchObject({ ok: false, kind: 'abort' })
  })

  it('output-limit: logs beyond maxOutputBytes end the run, keeping the lines that fit', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request('for (let i = 0; i < 1000; i++) console.log("x".repeat(100))'),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
    expect(outcome.logs.length).toBe(40)
  })

  it('output-limit: a result that alone exceeds the cap', async () => {
    const { host } = fakeHost(tools)
    expect(await runtime.run(request('return "y".repeat(5000)'), host)).toMatchObject({
      ok: false,
      kind: 'output-limit',
    })
  })

  it('invalid-output: BigInt, functions, cycles, non-finite numbers, holes and class instances', async () => {
    const { host } = fakeHost(tools)
    const cases: Array<[string, RegExp]> = [
      ['return 1n', /BigInt at \$/],
      ['return { f: () => 1 }', /function at \$\.f/],
      ['const a: any = { b: {} }; a.b.c = a; return a', /cycle at \$\.b\.c/],
      ['return [1, NaN]', /non-finite number at \$\[1\]/],
      ['return [1, , 3]', /hole at \$\[1\]/],
      ['return { d: new Date(0) }', /non-plain object at \$\.d/],
      ['return Symbol("s")', /symbol at \$/],
    ]
    for (const [code, message] of cases) {
      expect(await runtime.run(request(code), host)).toMatchObject({
        ok: false,
        kind: 'invalid-output',
        message,
      })
    }
  })

  it('accepts deep JSON results and omits undefined properties', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'let v: any = 0\nfor (let i = 0; i < 5000; i++) v = [v]\nreturn { v: v.length, u: undefined, n: null }',
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: { v: 1, n: null } })
  })

  // node:vm: the V8 heap cap kills the worker. QuickJS: the engine's allocation cap throws inside
  // the program, so the run is a clean exception and the worker ends normally.
  const bomb =
    engine === 'node-vm'
      ? {
          kind: 'worker-exit',
          code: 'const keep: unknown[] = []\nwhile (true) keep.push(new Array(1_000_000).fill(keep.length + 0.5))',
          message: /out of memory/,
        }
      : {
          kind: 'exception',
          code: 'const keep: unknown[] = []\nwhile (true) keep.push(new Float64Array(1 << 17).fill(keep.length))',
          message: /^InternalError: out of memory/,
        }
  it(`${bomb.kind}: an allocation bomb hits the memory cap; the host stays alive`, async () => {
    const capped = createWorkerThreadRuntime({
      engine,
      warmWorkers: 0,
      computeMs: 60_000,
      maxOldGenerationSizeMb: 32,
    })
    try {
      const { host } = fakeHost(tools)
      const outcome = await capped.run(request(bomb.code), host)
      expect(outcome).toMatchObject({
        ok: false,
        kind: bomb.kind,
        message: expect.stringMatching(bomb.message),
      })
      await capped.whenIdle()
      expect(capped.stats().liveWorkers).toBe(0)
      expect(await capped.run(request('return "still alive"'), host)).toMatchObject({
        ok: true,
        result: 'still alive',
      })
    } finally {
      await capped.dispose()
    }
  })
})
