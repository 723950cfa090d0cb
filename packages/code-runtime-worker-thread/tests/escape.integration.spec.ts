/**
 * The escape corpus: attempts to reach the worker's privileged realm (and from there `process`,
 * `require`, the message port) from inside a program. Each must fail closed — the program gets
 * nothing but its own realm's objects, or the run fails — with the host alive and no worker left
 * running. A program that escapes returns the string 'ESCAPED'.
 */

import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { FakeToolCallError, fakeHost, request } from './fixtures/host'

let runtime: WorkerThreadRuntime

const tools = {
  echo: async (args: unknown) => args as never,
  fail: async () => {
    throw new FakeToolCallError('fail', 'tool failed')
  },
}

/** Wraps an attempt: it yields a candidate `process`; the run reports whether that worked. */
const attempt = (body: string) => `
const probe = (candidate: any) => candidate && typeof candidate === 'object' && typeof candidate.pid === 'number'
try {
  const got = await (async () => { ${body} })()
  return probe(got) ? 'ESCAPED' : 'blocked'
} catch (error: any) {
  try { if (probe(error?.constructor?.constructor?.('return process')?.())) return 'ESCAPED' } catch {}
  return 'blocked'
}`

async function run(code: string): Promise<CodeRunOutcome> {
  const { host } = fakeHost(tools)
  const outcome = await runtime.run(request(code, ['echo', 'fail']), host)
  expect(runtime.stats().runningWorkers).toBe(0)
  // A completed run settles while its worker exits; whenIdle waits for that exit.
  await runtime.whenIdle()
  expect(runtime.stats().exitingWorkers).toBe(0)
  expect(runtime.stats().liveWorkers).toBeLessThanOrEqual(1)
  return outcome
}

async function expectBlocked(body: string): Promise<void> {
  const outcome = await run(attempt(body))
  if (outcome.ok) expect(outcome.result).toBe('blocked')
  else expect(outcome.kind).not.toBe('worker-exit')
}

const corpus: Array<[string, string]> = [
  ['tools.constructor.constructor', `return tools.constructor.constructor('return process')()`],
  ['a binding function constructor', `return tools.echo.constructor('return process')()`],
  ['console.log.constructor', `return console.log.constructor('return process')()`],
  ['ToolCallError.constructor', `return ToolCallError.constructor('return process')()`],
  ['setTimeout.constructor', `return setTimeout.constructor('return process')()`],
  [
    'an error thrown by a tool',
    `try { await tools.fail({}) } catch (e: any) { return e.constructor.constructor('return process')() }`,
  ],
  ['the promise a binding returns', `return tools.echo({}).constructor.constructor('return process')()`],
  [
    'a value a tool returned',
    `const v: any = await tools.echo({ a: [1] }); return v.a.constructor.constructor('return process')()`,
  ],
  [
    'this and globalThis',
    `return (this as any)?.constructor?.constructor('return process')() ?? globalThis.constructor.constructor('return process')()`,
  ],
  [
    'the global prototype chain',
    `let o: any = globalThis; while (Object.getPrototypeOf(o)) o = Object.getPrototypeOf(o); return o.constructor.constructor('return process')()`,
  ],
  ['eval and Function', `try { return eval('process') } catch {} return new Function('return process')()`],
  [
    'async and generator function constructors',
    `const A: any = (async () => {}).constructor; try { return await A('return process')() } catch {} const G: any = (function* () {}).constructor; return G('return process')().next().value`,
  ],
  [
    'ambient globals',
    `const g: any = globalThis; return g.process ?? g.require?.('node:process') ?? g.module?.require?.('node:process') ?? g.Buffer ?? g.fetch ?? g.WebAssembly ?? g.SharedArrayBuffer ?? g.structuredClone ?? g.postMessage ?? g.parentPort`,
  ],
  ['process.exit', `(globalThis as any).process.exit(1)`],
  [
    'stack formatting with a Symbol name',
    `const e: any = new Error('x'); e.name = Symbol('s'); void e.stack; return String(e)`,
  ],
  [
    'stack formatting with an object name',
    `const e: any = new RangeError('x'); e.name = { toString: null, valueOf: null }; return String(e)`,
  ],
  [
    'Error.prepareStackTrace callsites',
    `'use strict'; (Error as any).prepareStackTrace = (_: any, t: any) => t; const t: any = new Error('x').stack; return t?.[1]?.getFunction?.()?.constructor('return process')()`,
  ],
  [
    'replacing the Error global',
    `'use strict'; (globalThis as any).Error = { prepareStackTrace: (_: any, t: any) => t }; return 1`,
  ],
  [
    'caller of a timer callback',
    `return await new Promise((resolve) => setTimeout(function f(this: any) { resolve((f as any).caller ?? (arguments as any).callee?.caller) }, 1))`,
  ],
  [
    'getters reached while arguments are cloned',
    `let leaked: any; const args = { get x() { leaked = (this as any).constructor.constructor; return 1 } }; await tools.echo(args); return leaked('return process')()`,
  ],
]

describe.each(ENGINES)('escape corpus (%s)', (engine) => {
  beforeAll(() => {
    runtime = createWorkerThreadRuntime({ engine, warmWorkers: 1, computeMs: 3_000, maxWallMs: 10_000 })
  })
  afterAll(() => runtime.dispose())

  for (const [name, body] of corpus) {
    it(`blocks ${name}`, async () => {
      await expectBlocked(body)
    })
  }

  it('blocks import() before a worker is used', async () => {
    await runtime.whenIdle()
    const before = runtime.stats().liveWorkers
    const outcome = await run(
      `const fs = await import('node:fs'); return fs.readFileSync('/etc/hostname', 'utf8')`,
    )
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'exception',
      message: expect.stringMatching(/import\(\)/),
    })
    expect(runtime.stats().liveWorkers).toBe(before)
  })

  // QuickJS interprets, and captures every frame of a stack: it crosses its overflow boundary in
  // fewer, coarser steps within the same compute budget.
  it('blocks host-realm errors from the stack-overflow boundary of host functions', async () => {
    const outcome = await run(`
      let leaks = 0
      function dive(n: number): number {
        if (n > 0) { try { return dive(n - 1) } catch {} }
        try { void new Error('y').stack; console.log(); void tools.echo({}).catch((e) => { if (!(e instanceof Error)) leaks++ }) }
        catch (e) { if (!(e instanceof Error)) leaks++ }
        return 0
      }
      for (let i = 0; i < 12000; i += ${engine === 'quickjs' ? 997 : 97}) dive(i)
      await new Promise((r) => setTimeout(r, 20))
      return leaks`)
    expect(outcome).toMatchObject({ ok: true, result: 0 })
  })

  it('keeps prototype pollution away from the bridge', async () => {
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        `(Object.prototype as any).polluted = 'yes'
         ;(Array.prototype as any).push = () => { throw new Error('push') }
         ;(Object.prototype as any).toJSON = () => 'hijacked'
         JSON.parse = () => 'hijacked'
         Promise.prototype.then = function () { throw new Error('then') } as any
         const value: any = await tools.echo({ list: [1, 2] })
         console.log('still logging')
         return [value.list.length, value.polluted]`,
        ['echo'],
      ),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: ['still logging'], result: [2, 'yes'] })
    expect(calls[0]?.args).toEqual({ list: [1, 2] })
    expect(Object.hasOwn(calls[0]?.args as object, 'polluted')).toBe(false)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('gives the program no port: it cannot forge protocol messages', async () => {
    const outcome = await run(
      `const g: any = globalThis; return [typeof g.postMessage, typeof g.parentPort, typeof g.onmessage, typeof g.require, typeof g.process]`,
    )
    expect(outcome).toMatchObject({
      ok: true,
      result: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
    })
  })

  it('cannot stall on Atomics.wait', async () => {
    const outcome = await run(
      `const a: any = (globalThis as any).Atomics ?? {}; return [typeof a.wait, typeof a.waitAsync, typeof (globalThis as any).SharedArrayBuffer]`,
    )
    expect(outcome).toMatchObject({ ok: true, result: ['undefined', 'undefined', 'undefined'] })
  })

  it('contains a recursive stack overflow as an exception', async () => {
    const outcome = await run('function f(): number { return f() + 1 }\nreturn f()')
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'exception',
      // V8: RangeError: Maximum call stack size exceeded; QuickJS: InternalError: stack overflow
      message: expect.stringMatching(/^(RangeError|InternalError): .*stack/),
    })
  })

  it('contains a microtask storm with computeMs', async () => {
    const outcome = await run('const spin = (): Promise<void> => Promise.resolve().then(spin)\nawait spin()')
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
  })
})
