/**
 * The QuickJS engine's direct FFI path (`src/worker/quickjs/engine-link.ts`), on a real engine
 * booted in-process with the real guest kernel: strings cross both ways intact, exceptions come
 * back as handles, one drain empties the job queue, served host functions answer without the
 * library's callback layer, and the boot warm-up leaves nothing behind in the context.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { buildGuestKernelScript } from '../scripts/quickjs-worker-source'
import { quickJSWorkerData } from '../src/worker/quickjs/quickjs-worker-data'
import { type Engine, type EngineCallbacks, startEngine, warmUp } from '../src/worker/quickjs/start-engine'

let kernelScript: string

beforeAll(async () => {
  kernelScript = await buildGuestKernelScript()
})

async function boot(
  call: EngineCallbacks['call'] = () => 'no tools',
  shouldInterrupt: () => boolean = () => false,
  memoryMb = 64,
): Promise<Engine> {
  const data = quickJSWorkerData({ maxOldGenerationSizeMb: memoryMb, computeMs: 1_000_000 })
  const engine = await startEngine(data, kernelScript, {
    call,
    log() {},
    timer() {},
    clearTimer() {},
    done() {},
    reads() {},
    shouldInterrupt,
  })
  // Each engine has a WebAssembly instance and memory of its own, dropped with it (as a worker's
  // engine is with its thread), so tests do not dispose them.
  return engine
}

/** Evaluate `source` (a function expression) in the engine. */
function evalFunction(engine: Engine, source: string) {
  return engine.vm.unwrapResult(engine.vm.evalCode(source, 'test.js'))
}

/** The global object's own property names, as the guest sees them. */
function globalNames(engine: Engine): string {
  const names = engine.vm.unwrapResult(engine.vm.evalCode('Object.getOwnPropertyNames(globalThis).join()'))
  const text = engine.vm.getString(names)
  names.dispose()
  return text
}

const SAMPLES = ['', 'plain', 'ünïcödé ✓', '😀 astral', '"quoted" \\ back\nslash', 'x'.repeat(1 << 20)]

describe('EngineLink', () => {
  it('hands a string to an engine function intact and returns the number it returned', async () => {
    const engine = await boot()
    const length = evalFunction(engine, '(text) => text.length * 2')
    for (const sample of SAMPLES) {
      const result = engine.link.callWithString(length, sample)
      expect(result).toEqual({ value: sample.length * 2 })
    }
    length.dispose()
  })

  it('returns an exception thrown by the engine function as a handle of its own', async () => {
    const engine = await boot()
    const thrower = evalFunction(engine, '(text) => { throw new RangeError("refused " + text) }')
    const result = engine.link.callWithString(thrower, 'this')
    expect(result.error).toBeDefined()
    expect(engine.vm.dump(result.error!)).toMatchObject({ name: 'RangeError', message: 'refused this' })
    result.error!.dispose()
    thrower.dispose()
  })

  it('keeps working after the engine memory grew (the heap view is re-taken)', async () => {
    const engine = await boot()
    // 32 MiB of string: twice the engine's initial memory.
    const grow = evalFunction(engine, '(text) => { globalThis.__big = text.repeat(1 << 23); return 1 }')
    expect(engine.link.callWithString(grow, 'abcd')).toEqual({ value: 1 })
    const count = evalFunction(engine, '(text) => JSON.parse(text).length')
    expect(engine.link.callWithString(count, '[1,2,3]')).toEqual({ value: 3 })
    expect(engine.link.drainJobs()).toEqual({ value: 0 })
    grow.dispose()
    count.dispose()
  })

  it('refuses a string the engine memory cannot hold with an error, and keeps working', async () => {
    // 16 MiB cap: the engine's memory stops at 32 MiB with its reserve.
    const engine = await boot(undefined, undefined, 16)
    const length = evalFunction(engine, '(text) => text.length')
    expect(() => engine.link.callWithString(length, 'x'.repeat(40 * 1024 * 1024))).toThrow('out of memory')
    expect(engine.link.callWithString(length, 'still here')).toEqual({ value: 10 })
    length.dispose()
  })

  it('empties the job queue in one drain, jobs queued by jobs included', async () => {
    const engine = await boot()
    const chain = evalFunction(
      engine,
      '(text) => { globalThis.__steps = 0; (async () => { for (let i = 0; i < Number(text); i++) { await null; globalThis.__steps++ } })(); return 0 }',
    )
    expect(engine.link.callWithString(chain, '1000')).toEqual({ value: 0 })
    expect(engine.runtime.hasPendingJob()).toBe(true)
    const drained = engine.link.drainJobs()
    expect(drained.error).toBeUndefined()
    expect(drained.value).toBeGreaterThanOrEqual(1000)
    expect(engine.runtime.hasPendingJob()).toBe(false)
    const steps = engine.vm.unwrapResult(engine.vm.evalCode('globalThis.__steps'))
    expect(engine.vm.getNumber(steps)).toBe(1000)
    steps.dispose()
    expect(engine.link.drainJobs()).toEqual({ value: 0 })
    chain.dispose()
  })

  it('drains past a job the interrupt stopped: its promise rejects, later jobs still run', async () => {
    let interrupt = false
    const engine = await boot(undefined, () => interrupt)
    const queue = evalFunction(
      engine,
      `() => {
        globalThis.__after = false
        Promise.resolve()
          .then(() => { for (;;) {} })
          .catch((e) => { globalThis.__stopped = String(e.message) })
        Promise.resolve().then(() => { globalThis.__after = true })
        return 0
      }`,
    )
    expect(engine.link.callWithString(queue, '')).toEqual({ value: 0 })
    interrupt = true
    const drained = engine.link.drainJobs()
    interrupt = false
    expect(drained.error).toBeUndefined()
    expect(engine.runtime.hasPendingJob()).toBe(false)
    const seen = engine.vm.unwrapResult(engine.vm.evalCode('[globalThis.__after, globalThis.__stopped]'))
    expect(engine.vm.dump(seen)).toEqual([true, 'interrupted'])
    seen.dispose()
    queue.dispose()
  })

  it('serves the kernel call function: both strings in, numbers and strings out, failures as strings', async () => {
    const seen: [string, string][] = []
    const answers: (number | string | Error)[] = [7, 'refused for a reason', new Error('worker broke')]
    const engine = await boot((name, args) => {
      seen.push([name, args])
      const answer = answers.shift()!
      if (answer instanceof Error) throw answer
      return answer
    })
    const names = engine.vm.newString('["alpha"]')
    engine.vm
      .unwrapResult(engine.vm.callFunction(engine.kernel.install, engine.vm.undefined, names))
      .dispose()
    names.dispose()
    const program = evalFunction(
      engine,
      `async () => {
        const out = []
        void tools.alpha({ s: "ünï 😀" })
        for (const args of [{ n: 2 }, undefined]) {
          try { await tools.alpha(args) } catch (e) { out.push(e.name + ": " + e.message) }
        }
        globalThis.__out = JSON.stringify(out)
      }`,
    )
    engine.vm.unwrapResult(engine.vm.callFunction(engine.kernel.run, engine.vm.undefined, program)).dispose()
    program.dispose()
    expect(engine.link.drainJobs().error).toBeUndefined()
    expect(seen).toEqual([
      ['alpha', '{"s":"ünï 😀"}'],
      ['alpha', '{"n":2}'],
      ['alpha', ''],
    ])
    const out = engine.vm.unwrapResult(engine.vm.evalCode('globalThis.__out'))
    expect(JSON.parse(engine.vm.getString(out))).toEqual([
      'ToolCallError: refused for a reason',
      'ToolCallError: the host call failed: worker broke',
    ])
    out.dispose()
  })

  it('answers a served function called with too few arguments, and leaves other functions to the library', async () => {
    const engine = await boot()
    let calls = 0
    const served = engine.link.newStringPairFunction('pair', (a, b) => {
      calls += 1
      return a + b
    })
    const plain = engine.vm.newFunction('plain', (value) =>
      engine.vm.newString(`plain ${engine.vm.getString(value!)}`),
    )
    const callWith = evalFunction(engine, '(fn, other) => [fn("a", "b"), fn("only"), other("x")]')
    const answered = engine.vm.unwrapResult(
      engine.vm.callFunction(callWith, engine.vm.undefined, served, plain),
    )
    expect(engine.vm.dump(answered)).toEqual(['ab', 'malformed host call', 'plain x'])
    expect(calls).toBe(1)
    answered.dispose()
    callWith.dispose()
    plain.dispose()
    served.dispose()
  })
})

describe('the boot warm-up', () => {
  it('leaves the context as it found it: no global, no pending job', async () => {
    const engine = await boot()
    const before = globalNames(engine)
    warmUp(engine)
    expect(globalNames(engine)).toBe(before)
    expect(engine.runtime.hasPendingJob()).toBe(false)
  })
})
