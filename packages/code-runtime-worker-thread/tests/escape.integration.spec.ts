/**
 * The escape corpus: attempts to reach the worker's privileged realm (and from there `process`,
 * `require`, the message port) from inside a program. Each must fail closed — the program gets
 * nothing but its own realm's objects, or the run fails — with the host alive and no worker left
 * running. A program that escapes returns the string 'ESCAPED'.
 */

import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { attempt, ESCAPE_ATTEMPTS as corpus } from './fixtures/escape-attempts'
import { FakeToolCallError, fakeHost, request } from './fixtures/host'

let runtime: WorkerThreadRuntime

const tools = {
  echo: async (args: unknown) => args as never,
  fail: async () => {
    throw new FakeToolCallError('fail', 'tool failed')
  },
}

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

  it('blocks the FinalizationRegistry route to the uncaught-exception path and util.inspect', async () => {
    // The reported escape: a cleanup callback runs outside the kernel's guard; it throws a value
    // whose 'message' getter throws (so a handler reading it fails) and whose inspect hook is
    // handed Node's own inspect, whose constructor compiles code in the privileged realm.
    const marker = join(mkdtempSync(join(tmpdir(), 'dsh-escape-')), 'escaped')
    const { host, calls } = fakeHost(tools)
    const outcome = await runtime.run(
      request(
        `const g: any = globalThis
        const bomb = {
          get message(): string { throw new Error('getter') },
          [Symbol.for('nodejs.util.inspect.custom')](_depth: unknown, _options: unknown, inspect: any) {
            const req = inspect.constructor('return globalThis.require')()
            req('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')
            req('node:worker_threads').parentPort.postMessage({ k: 'done', s: 0, v: '"ESCAPED"' })
            return 'x'
          },
        }
        const kinds = [typeof g.FinalizationRegistry, typeof g.WeakRef]
        if (typeof g.FinalizationRegistry === 'function') {
          const registry = new g.FinalizationRegistry(() => { throw bomb })
          for (let i = 0; i < 2000; i++) registry.register({ i }, i)
        }
        if (typeof g.WeakRef === 'function') new g.WeakRef({})
        // Churn the heap so a registry, if any, gets its cleanup scheduled.
        let keep: unknown[] = []
        for (let round = 0; round < 15; round++) {
          keep = Array.from({ length: 20000 }, (_, i) => ({ i, s: 'x'.repeat(8) }))
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
        await tools.echo({ done: keep.length })
        return kinds`,
        ['echo', 'fail'],
      ),
      host,
    )
    await runtime.whenIdle()
    expect(existsSync(marker)).toBe(false)
    if (engine === 'node-vm') {
      // node:vm removes both, so the program runs to its end.
      expect(outcome).toEqual({ ok: true, logs: [], result: ['undefined', 'undefined'] })
      expect(calls).toHaveLength(1)
    } else {
      // QuickJS keeps them: a cleanup callback runs inside the engine, its throw is the program's
      // own uncaught exception, described inside the engine (the throwing getter makes that
      // fail), and Node never inspects a program value.
      expect(outcome).toEqual({
        ok: false,
        kind: 'exception',
        logs: [],
        message: 'Uncaught exception (it could not be described)',
      })
    }
  })

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
    // A budget of its own: the storm only ends on it, so a short one gives the same outcome.
    const brief = createWorkerThreadRuntime({ engine, warmWorkers: 0, computeMs: 250, maxWallMs: 10_000 })
    const { host } = fakeHost(tools)
    const outcome = await brief
      .run(request('const spin = (): Promise<void> => Promise.resolve().then(spin)\nawait spin()'), host)
      .finally(() => brief.dispose())
    // Every turn of the storm also grows a promise chain. node:vm runs out of compute time first;
    // QuickJS may reach its memory cap first (its out-of-memory error is thrown as a bare `null`
    // when even the error object cannot be allocated). Either way the run ends inside its own
    // budgets and only this run fails.
    if (engine === 'quickjs')
      expect(outcome).toMatchObject({ ok: false, kind: expect.stringMatching(/^(timeout|exception)$/) })
    else expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
  })
})
