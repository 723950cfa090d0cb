/**
 * The QuickJS engine's containment, with real workers: each line that crashed or stalled the
 * host under node:vm ends its own run with a clear failure kind, the test process lives on, no
 * worker is left running, and the next run works. Nothing of Node is reachable from a program.
 */
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { afterAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime } from '../src/index'
import { fakeHost, request } from './fixtures/host'

const runtime = createWorkerThreadRuntime({
  engine: 'quickjs',
  warmWorkers: 1,
  computeMs: 3_000,
  maxWallMs: 20_000,
  maxOutputBytes: 100_000,
  maxOldGenerationSizeMb: 32,
})
// A hot loop only ends on computeMs: a short budget of its own keeps that test from burning
// seconds of CPU for the same outcome.
const brief = createWorkerThreadRuntime({
  engine: 'quickjs',
  warmWorkers: 0,
  computeMs: 300,
  maxWallMs: 20_000,
})
afterAll(() => Promise.all([runtime.dispose(), brief.dispose()]))

const tools = { echo: async (args: unknown) => args as never }

async function run(code: string, on = runtime): Promise<CodeRunOutcome> {
  const { host } = fakeHost(tools)
  const outcome = await on.run(request(code, ['echo']), host)
  await on.whenIdle()
  expect(on.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0 })
  expect(await on.run(request('return "next"'), host)).toMatchObject({ ok: true, result: 'next' })
  return outcome
}

const outOfMemory = { ok: false, kind: 'exception', message: expect.stringMatching(/out of memory/) }

describe('QuickJS engine limits', () => {
  // QuickJS stores a 2**27-long array's elements as properties, one by one: it fails on memory
  // first, or — on a loaded machine — is stopped by computeMs. Either way the run ends alone.
  it('ends a 2**27-element array on memory or time, never crashing', async () => {
    const outcome = await run('new Array(2 ** 27).fill(0)')
    if (!outcome.ok && outcome.kind === 'timeout') return
    expect(outcome).toMatchObject(outOfMemory)
  })

  it.each([
    [
      'the property names of a 2**27-byte typed array',
      'return Object.getOwnPropertyNames(new Uint8Array(2 ** 27 + 5)).length',
    ],
    [
      '1.2 GB of ArrayBuffers',
      'const keep: ArrayBuffer[] = []\nfor (let i = 0; i < 1200; i++) keep.push(new ArrayBuffer(1 << 20))',
    ],
    ['sorting a 2**26-element Float64Array', 'new Float64Array(2 ** 26).sort()'],
    [
      '1 MiB typed arrays kept in a loop',
      'const keep: unknown[] = []\nwhile (true) keep.push(new Float64Array(1 << 17))',
    ],
  ])('ends %s as an out-of-memory exception', async (_label, code) => {
    expect(await run(code)).toMatchObject(outOfMemory)
  })

  it('ends a doubling string as an exception', async () => {
    expect(await run('let s = "x"\nfor (;;) s += s')).toMatchObject({
      ok: false,
      kind: 'exception',
      message: expect.stringMatching(/^InternalError: (out of memory|string too long)/),
    })
  })

  it('lets a program catch an allocation failure and go on', async () => {
    expect(
      await run(
        'let keep: unknown[] = []\ntry { for (;;) keep.push(new ArrayBuffer(1 << 20)) } catch (e: any) { keep = []; return [e.name, e.message] }',
      ),
    ).toEqual({ ok: true, logs: [], result: ['InternalError', 'out of memory'] })
  })

  it('ends a deep recursion as a stack-overflow exception', async () => {
    expect(await run('const f = (n: number): number => f(n + 1) + 1\nreturn f(0)')).toMatchObject({
      ok: false,
      kind: 'exception',
      message: 'InternalError: stack overflow',
    })
  })

  it('ends a hot loop as timeout', async () => {
    expect(await run('while (true) {}', brief)).toMatchObject({ ok: false, kind: 'timeout' })
  })

  it('charges empty log lines: three million console.log() hit maxOutputBytes', async () => {
    const small = createWorkerThreadRuntime({ engine: 'quickjs', warmWorkers: 0, maxOutputBytes: 10_000 })
    try {
      const { host, streamed } = fakeHost(tools)
      const outcome = await small.run(request('for (let i = 0; i < 3_000_000; i++) console.log()'), host)
      expect(outcome).toMatchObject({ ok: false, kind: 'output-limit' })
      expect(streamed.length).toBeLessThanOrEqual(10_000)
    } finally {
      await small.dispose()
    }
  })

  it('offers no Node, no WebAssembly and no shared memory', async () => {
    const outcome = await run(`
      const g: any = globalThis
      const names = ['process', 'require', 'module', 'Buffer', 'WebAssembly', 'SharedArrayBuffer', 'Atomics',
        'fetch', 'structuredClone', 'queueMicrotask', 'postMessage', 'importScripts', 'std', 'os']
      return names.filter((name) => name in g || typeof g[name] !== 'undefined')`)
    expect(outcome).toEqual({ ok: true, logs: [], result: [] })
  })

  it('sends tool arguments as strict JSON and names the path of what is not', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        `const tries = [{ d: new Date(0) }, { list: [1, () => 1] }, { n: 1n }, { deep: { nan: NaN } }]
         const out: string[] = []
         for (const args of tries) { try { await tools.echo(args) } catch (e: any) { out.push(e.name + ': ' + e.message) } }
         return out`,
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({
      ok: true,
      logs: [],
      result: [
        'ToolCallError: arguments for echo are not JSON: a non-plain object at $.d',
        'ToolCallError: arguments for echo are not JSON: a function at $.list[1]',
        'ToolCallError: arguments for echo are not JSON: a BigInt at $.n',
        'ToolCallError: arguments for echo are not JSON: a non-finite number at $.deep.nan',
      ],
    })
    expect(calls).toEqual([])
  })

  it('refuses import() before a worker is used', async () => {
    expect(await run('return await import("node:fs")')).toMatchObject({
      ok: false,
      kind: 'exception',
      message: expect.stringMatching(/^import\(\) is not available/),
    })
  })

  it.each([
    [
      'a throwing FinalizationRegistry callback',
      `const r = new FinalizationRegistry(() => { throw { get message() { throw new Error('x') } } })
       for (let i = 0; i < 1000; i++) r.register({}, i)
       await new Promise((resolve) => setTimeout(resolve, 20))
       return typeof (globalThis as any).process`,
    ],
    [
      'a WeakRef to a dropped object',
      `const w = new WeakRef({}); await new Promise((resolve) => setTimeout(resolve, 20)); return typeof w.deref()`,
    ],
    [
      'a util.inspect.custom hook on a thrown value',
      `const o: any = { [Symbol.for('nodejs.util.inspect.custom')]: (_d: unknown, _o: unknown, inspect: any) => { (globalThis as any).leak = inspect; return 'x' } }
       console.log(o)
       setTimeout(() => { throw o }, 0)
       await new Promise((resolve) => setTimeout(resolve, 20))
       return typeof (globalThis as any).leak`,
    ],
  ])('gives %s nothing outside the engine', async (_label, code) => {
    const outcome = await run(code)
    if (outcome.ok) expect(outcome.result).toBe('undefined')
    else expect(outcome.kind).toBe('exception')
    expect(outcome.ok ? '' : outcome.message).not.toMatch(/internal worker error|worker failed/)
  })
})
