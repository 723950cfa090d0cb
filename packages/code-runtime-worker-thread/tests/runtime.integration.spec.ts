import { Context } from '@deepseek-ai/cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WorkerThreadCodeRuntime, { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { FakeToolCallError, fakeHost, request } from './fixtures/host'

let runtime: WorkerThreadRuntime

const tools = {
  add: async (args: unknown) => {
    const { a, b } = args as { a: number; b: number }
    return { sum: a + b }
  },
  echo: async (args: unknown) => args as never,
  deny: async () => {
    throw new FakeToolCallError('deny', 'denied by policy')
  },
}

describe.each(ENGINES)('WorkerThreadRuntime (%s)', (engine) => {
  beforeAll(() => {
    runtime = createWorkerThreadRuntime({ engine, warmWorkers: 1, computeMs: 20_000, maxWallMs: 20_000 })
  })
  afterAll(() => runtime.dispose())

  it('runs a program and returns its JSON result and logs', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request('const x: number = 41\nconsole.log("x is", x)\nreturn { x: x + 1 }'),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: ['x is 41'], result: { x: 42 } })
    expect(runtime.language).toBe('typescript')
  })

  it('omits result when the program returns nothing, and keeps explicit null', async () => {
    const { host } = fakeHost(tools)
    expect(await runtime.run(request('console.log("only logs")'), host)).toEqual({
      ok: true,
      logs: ['only logs'],
    })
    expect(await runtime.run(request('return null'), host)).toEqual({ ok: true, logs: [], result: null })
  })

  it('forwards sequential awaited calls in order', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'let total = 0\nfor (let i = 0; i < 50; i++) total += (await tools.add({ a: i, b: 1 })).sum\nreturn total',
        ['add'],
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: 1275 })
    expect(calls.map((call) => (call.args as { a: number }).a)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    )
  })

  it('hands arguments to host.callJson as the JSON text the program serialized (QuickJS), else to call', async () => {
    const viaText: [string, string][] = []
    const viaValue: [string, unknown][] = []
    const host = {
      signal: new AbortController().signal,
      call: async (name: string, args: unknown) => {
        viaValue.push([name, args])
        return args as never
      },
      callJson: async (name: string, argsJson: string) => {
        viaText.push([name, argsJson])
        return JSON.parse(argsJson)
      },
    }
    const outcome = await runtime.run(
      request(
        'const a = await tools.echo({ s: "[]" + String.fromCharCode(34, 92), n: [1, { x: null }] })\nconst b = await tools.echo()\nconst c = await Promise.all([tools.echo(1), tools.echo("two")])\nreturn [a, b ?? null, c]',
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      logs: [],
      result: [{ s: '[]"\\', n: [1, { x: null }] }, null, [1, 'two']],
    })
    if (engine === 'quickjs') {
      // Arguments leave the engine as text and stay text; a call without arguments uses `call`.
      expect(viaText).toEqual([
        ['echo', '{"s":"[]\\"\\\\","n":[1,{"x":null}]}'],
        ['echo', '1'],
        ['echo', '"two"'],
      ])
      expect(viaValue).toEqual([['echo', undefined]])
    } else {
      // node:vm structured-clones arguments: they arrive as values.
      expect(viaText).toEqual([])
      expect(viaValue.map(([, args]) => args)).toEqual([
        { s: '[]"\\', n: [1, { x: null }] },
        undefined,
        1,
        'two',
      ])
    }
  })

  it('parses argument text itself for a host without callJson', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(request('return (await tools.add({ a: 2, b: 3 })).sum', ['add']), host)
    expect(outcome).toEqual({ ok: true, logs: [], result: 5 })
    expect(calls).toEqual([{ name: 'add', args: { a: 2, b: 3 } }])
  })

  it('forwards Promise.all calls in submission order and resolves each to its value', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'const r = await Promise.all(Array.from({ length: 200 }, (_, i) => tools.echo({ i })))\nreturn r.map((v) => v.i)',
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: Array.from({ length: 200 }, (_, i) => i) })
    expect(calls.map((call) => (call.args as { i: number }).i)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    )
  })

  it('snapshots call arguments at call time', async () => {
    const { host, calls } = fakeHost(tools)
    await runtime.run(
      request('const a = { v: 1 }\nconst p = tools.echo(a)\na.v = 2\nawait p', ['echo']),
      host,
    )
    expect(calls[0]?.args).toEqual({ v: 1 })
  })

  it('snapshots call arguments at call time while other calls are outstanding', async () => {
    const { host, calls } = fakeHost(tools)
    await runtime.run(
      request(
        'const a = { v: 1 }, b = { v: 1 }\nconst ps = [tools.echo(a), tools.echo(b)]\na.v = 2\nb.v = 2\nawait Promise.all(ps)',
        ['echo'],
      ),
      host,
    )
    expect(calls.map((call) => call.args)).toEqual([{ v: 1 }, { v: 1 }])
  })

  it('rejects a failed call with an in-realm ToolCallError carrying only toolName and message', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'try { await tools.deny({}) } catch (e) {\n  return [e instanceof ToolCallError, e instanceof Error, e.name, e.toolName, e.message, Object.keys(e)]\n}',
        ['deny'],
      ),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      logs: [],
      result: [true, true, 'ToolCallError', 'deny', 'denied by policy', ['toolName']],
    })
  })

  it('rejects uncloneable arguments as a ToolCallError for that call only', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'let m = ""\ntry { await tools.echo({ f: () => 1 }) } catch (e) { m = e.name }\nreturn [m, (await tools.echo({ ok: 1 })).ok]',
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: ['ToolCallError', 1] })
    expect(calls).toHaveLength(1)
  })

  it('rejects uncloneable arguments of a call made while another is outstanding', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'const r = await Promise.allSettled([tools.echo({ n: 1 }), tools.echo({ f: () => 1 }), tools.echo({ n: 3 })])\nreturn r.map((s) => s.status === "fulfilled" ? s.value.n : s.reason.name)',
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: [1, 'ToolCallError', 3] })
    expect(calls).toHaveLength(2)
  })

  it('streams logs to host.onLog as they are printed', async () => {
    const { host, streamed } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        'console.log("a", 1, { b: [1, "x"] })\nconsole.error("%s=%d", "n", 5)\nconsole.warn(null, undefined, 2n)',
      ),
      host,
    )
    expect(outcome.logs).toEqual(["a 1 { b: [ 1, 'x' ] }".replace("'x'", '"x"'), 'n=5', 'null undefined 2n'])
    expect(streamed).toEqual(outcome.logs)
  })

  it('supports timers: setTimeout, setInterval and their clear functions', async () => {
    const { host } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        [
          'const order: string[] = []',
          'const cancelled = setTimeout(() => order.push("never"), 1)',
          'clearTimeout(cancelled)',
          'await new Promise((r) => setTimeout(() => { order.push("timeout"); r(0) }, 5))',
          'let ticks = 0',
          'await new Promise((r) => { const h = setInterval(() => { ticks++; if (ticks === 3) { clearInterval(h); r(0) } }, 1) })',
          'order.push("ticks:" + ticks)',
          'return order',
        ].join('\n'),
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: ['timeout', 'ticks:3'] })
  })

  it('gives every run fresh state: a global set in one run is absent in the next', async () => {
    const { host } = fakeHost(tools)
    await runtime.run(request('globalThis.leftover = 1; Object.prototype.polluted = true'), host)
    const outcome = await runtime.run(
      request('return [typeof globalThis.leftover, ({}).polluted === undefined]'),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: [], result: ['undefined', true] })
  })

  it('leaves no worker behind: live workers are only the warm ones', async () => {
    const { host } = fakeHost(tools)
    await runtime.run(request('return 1'), host)
    expect(runtime.stats().runningWorkers).toBe(0)
    // The run settled on its completion message; its worker is exiting, then gone.
    await runtime.whenIdle()
    const stats = runtime.stats()
    expect(stats.exitingWorkers).toBe(0)
    expect(stats.liveWorkers).toBeLessThanOrEqual(1)
  })

  it('bounds concurrent runs and queues the rest in order', async () => {
    const limited = createWorkerThreadRuntime({ warmWorkers: 0, maxConcurrentRuns: 1 })
    try {
      const { host } = fakeHost(tools)
      const order: number[] = []
      const runs = [1, 2, 3].map((n) =>
        limited.run(request(`return ${n}`), host).then((outcome) => {
          order.push(n)
          return outcome
        }),
      )
      expect(limited.stats().queuedRuns).toBeGreaterThanOrEqual(0)
      await Promise.all(runs)
      expect(order).toEqual([1, 2, 3])
      await limited.whenIdle()
      expect(limited.stats().liveWorkers).toBe(0)
    } finally {
      await limited.dispose()
    }
  })
})

describe('worker lifetime after a run settles', () => {
  it('holds the concurrency slot until the worker has exited', async () => {
    const limited = createWorkerThreadRuntime({ warmWorkers: 0, maxConcurrentRuns: 1 })
    try {
      const { host } = fakeHost(tools)
      const live: number[] = []
      await Promise.all(
        [1, 2, 3].map((n) =>
          limited.run(request(`return ${n}`), host).then(() => live.push(limited.stats().liveWorkers)),
        ),
      )
      // The next run's worker is spawned only once the previous one is gone.
      expect(Math.max(...live)).toBeLessThanOrEqual(1)
    } finally {
      await limited.dispose()
    }
  })

  it('whenIdle waits for running runs and exiting workers; dispose waits for every exit', async () => {
    const local = createWorkerThreadRuntime({ warmWorkers: 1 })
    const { host } = fakeHost(tools)
    const runs = [local.run(request('return 1'), host), local.run(request('return 2'), host)]
    await local.whenIdle()
    expect((await Promise.all(runs)).map((outcome) => outcome.ok)).toEqual([true, true])
    expect(local.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0, queuedRuns: 0 })
    expect(await local.run(request('return 3'), host)).toMatchObject({ ok: true, result: 3 })
    await local.dispose()
    expect(local.stats()).toMatchObject({ liveWorkers: 0, exitingWorkers: 0, runningWorkers: 0 })
  })
})

describe('cordis service', () => {
  it('registers ctx.codeRuntime and terminates every worker, warm ones included, on dispose', async () => {
    const root = new Context()
    const fiber = await root.plugin(WorkerThreadCodeRuntime, { warmWorkers: 2 })
    const service = root.get('codeRuntime') as WorkerThreadCodeRuntime
    expect(service.language).toBe('typescript')
    const { host } = fakeHost(tools)
    expect(await service.run(request('return await tools.add({ a: 1, b: 2 })', ['add']), host)).toEqual({
      ok: true,
      logs: [],
      result: { sum: 3 },
    })
    const pending = service.run(request('await new Promise(() => {})'), host)
    await fiber.dispose()
    expect(service.stats().liveWorkers).toBe(0)
    expect(await pending).toMatchObject({ ok: false, kind: 'abort' })
  })

  it('validates config through cordis', async () => {
    const root = new Context()
    await expect(root.plugin(WorkerThreadCodeRuntime, { computeMs: -1 })).rejects.toThrow(/computeMs/)
  })
})
