/**
 * The node:vm kernel's TypeScript module driven in-process, against a stand-in global object
 * (the worker evaluates the same module, bundled, inside each run's fresh `vm` context): globals
 * it defines, binding calls and their settlement, timers, completion and result shaping.
 */
import { describe, expect, it } from 'vitest'
import {
  installKernel,
  type KernelGlobal,
  type NodeVmHost,
  type NodeVmKernel,
  removeAmbientCapabilities,
} from '../src/worker/node-vm/kernel'

interface Recorded {
  readonly calls: Array<[string, unknown]>
  readonly lines: string[]
  readonly timers: Array<[number, number, boolean]>
  readonly cleared: number[]
  readonly done: Array<[number, string | undefined]>
}

function setup(overrides: Partial<NodeVmHost> = {}) {
  const recorded: Recorded = { calls: [], lines: [], timers: [], cleared: [], done: [] }
  let nextCall = 0
  const host: NodeVmHost = {
    call: (name, args) => {
      recorded.calls.push([name, args])
      return ++nextCall
    },
    log: (line) => recorded.lines.push(line),
    timer: (id, ms, repeat) => recorded.timers.push([id, ms, repeat]),
    clearTimer: (id) => recorded.cleared.push(id),
    done: (status, payload) => recorded.done.push([status, payload]),
    reads: () => {},
    ...overrides,
  } as NodeVmHost
  const global: KernelGlobal = {}
  const kernel = installKernel(host, global)
  return { kernel, global, recorded }
}

/** `[1, <hole>, 3]`. */
function holey(): unknown[] {
  const array = [1, 2, 3]
  delete array[1]
  return array
}

/** Run `program` and let its microtasks settle. */
async function run(kernel: NodeVmKernel, program: unknown): Promise<void> {
  kernel.run(program)
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('node:vm kernel globals', () => {
  it('defines frozen, non-writable console, timers and ToolCallError, and tools on install', () => {
    const { kernel, global } = setup()
    for (const name of [
      'console',
      'setTimeout',
      'setInterval',
      'clearTimeout',
      'clearInterval',
      'ToolCallError',
    ]) {
      expect(Object.getOwnPropertyDescriptor(global, name)).toMatchObject({
        writable: false,
        configurable: false,
      })
    }
    kernel.install('["add","weird-name"]')
    const tools = global['tools'] as Record<string, unknown>
    expect(Object.getPrototypeOf(tools)).toBe(null)
    expect(Object.isFrozen(tools)).toBe(true)
    expect(Object.keys(tools)).toEqual(['add', 'weird-name'])
    expect((tools['add'] as { name: string }).name).toBe('add')
  })

  it('removes ambient capabilities and stops stack capture on the context Error', () => {
    function ContextError() {}
    const atomics = { wait: () => 0, waitAsync: () => 0, add: () => 0 }
    const global: KernelGlobal = {
      WebAssembly: {},
      SharedArrayBuffer: {},
      console: {},
      FinalizationRegistry: {},
      WeakRef: {},
      WeakMap,
      Atomics: atomics,
      Error: ContextError,
    }
    removeAmbientCapabilities(global)
    expect(Object.keys(global).sort()).toEqual(['Atomics', 'WeakMap'])
    expect(Object.keys(atomics)).toEqual(['add'])
    for (const name of ['stackTraceLimit', 'prepareStackTrace', 'captureStackTrace']) {
      expect(Object.getOwnPropertyDescriptor(ContextError, name)).toEqual({
        value: undefined,
        writable: false,
        enumerable: false,
        configurable: false,
      })
    }
    expect(Object.getOwnPropertyDescriptor(global, 'Error')).toMatchObject({
      value: ContextError,
      writable: false,
    })
  })

  it('prints one formatted line per console call, whatever the method', () => {
    const { global, recorded } = setup()
    const console = global['console'] as Record<string, (...args: unknown[]) => void>
    console['log']!('x is', 41, { a: [1, 'b'] })
    console['error']!('%s=%d%%', 'n', 7)
    console['debug']!()
    expect(recorded.lines).toEqual(['x is 41 { a: [ 1, "b" ] }', 'n=7%', ''])
  })
})

describe('node:vm kernel completion', () => {
  it('reports a JSON result, undefined as no result, and refuses non-JSON with its path', async () => {
    const cases: Array<[unknown, [number, string | undefined]]> = [
      [{ a: [1, null, 'x'], skip: undefined }, [0, '{"a":[1,null,"x"]}']],
      [undefined, [0, undefined]],
      [{ f: () => 1 }, [2, 'the result is not JSON: a function at $.f']],
      [holey(), [2, 'the result is not JSON: an array hole at $[1]']],
      [new Map(), [2, 'the result is not JSON: a non-plain object at $']],
    ]
    for (const [value, expected] of cases) {
      const { kernel, recorded } = setup()
      await run(kernel, async () => value)
      expect(recorded.done).toEqual([expected])
    }
  })

  it('reports a throwing getter on the result as invalid output, not a crash', async () => {
    const { kernel, recorded } = setup()
    const result = {
      get boom(): never {
        throw new RangeError('no')
      },
    }
    await run(kernel, async () => result)
    expect(recorded.done).toEqual([[2, 'the result could not be serialized: RangeError: no']])
  })

  it('describes throws and rejections as Name: message, and a non-function program as an exception', async () => {
    const thrown = setup()
    await run(thrown.kernel, () => {
      throw new TypeError('bad')
    })
    expect(thrown.recorded.done).toEqual([[1, 'TypeError: bad']])
    const rejected = setup()
    await run(rejected.kernel, async () => Promise.reject(42))
    expect(rejected.recorded.done).toEqual([[1, 'Uncaught 42']])
    const notFunction = setup()
    await run(notFunction.kernel, 'return 1')
    expect(notFunction.recorded.done).toEqual([[1, 'the program did not compile to a function']])
  })

  it('completes once, even if the host throws', async () => {
    const done: unknown[] = []
    const { kernel } = setup({
      done: (status) => {
        done.push(status)
        throw new Error('host failure')
      },
    })
    await run(kernel, async () => 1)
    kernel.fire(99)
    expect(done).toEqual([0])
  })
})

describe('node:vm kernel bindings', () => {
  it('settles calls by status: primitive, JSON text, error; each id once', async () => {
    const { kernel, global, recorded } = setup()
    kernel.install('["t"]')
    const t = (global['tools'] as Record<string, (args: unknown) => Promise<unknown>>)['t']!
    const results = [t(1), t({ a: 2 }), t(3), t(4)]
    kernel.settle(1, 0, 'plain', undefined)
    kernel.settle(2, 1, '{"ok":true}', undefined)
    kernel.settle(3, 2, 't', 'denied')
    kernel.settle(3, 0, 'again', undefined)
    kernel.settle(4, 1, '{not json', undefined)
    const settled = await Promise.allSettled(results)
    expect(recorded.calls).toEqual([
      ['t', 1],
      ['t', { a: 2 }],
      ['t', 3],
      ['t', 4],
    ])
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 'plain' })
    expect(settled[1]).toEqual({ status: 'fulfilled', value: { ok: true } })
    const denied = (settled[2] as PromiseRejectedResult).reason as Error & { toolName: string }
    expect([denied.name, denied.toolName, denied.message]).toEqual(['ToolCallError', 't', 'denied'])
    expect(((settled[3] as PromiseRejectedResult).reason as Error).message).toBe(
      'the tool result could not be decoded',
    )
  })

  it('rejects a call the host refuses or fails to send with a ToolCallError', async () => {
    let refusal: number | string = 'the run has ended'
    const { kernel, global } = setup({
      call: () => {
        if (refusal === 'throw') throw new Error('port closed')
        return refusal
      },
    })
    kernel.install('["t"]')
    const t = (global['tools'] as Record<string, (args: unknown) => Promise<unknown>>)['t']!
    await expect(t(1)).rejects.toMatchObject({
      name: 'ToolCallError',
      toolName: 't',
      message: 'the run has ended',
    })
    refusal = 'throw'
    await expect(t(1)).rejects.toMatchObject({ message: 'the call could not be sent' })
  })
})

describe('node:vm kernel timers', () => {
  it('schedules through the host with a clamped delay, fires once or repeatedly, and cancels', () => {
    const { kernel, global, recorded } = setup()
    const timers = global as Record<string, (...args: unknown[]) => number>
    const fired: unknown[] = []
    const once = timers['setTimeout']!((value: unknown) => fired.push(value), -5, 'once')
    const every = timers['setInterval']!(() => fired.push('tick'), 3e9)
    expect(recorded.timers).toEqual([
      [once, 1, false],
      [every, 1, true],
    ])
    kernel.fire(once)
    kernel.fire(once)
    kernel.fire(every)
    kernel.fire(every)
    timers['clearInterval']!(every)
    timers['clearTimeout']!('not an id')
    kernel.fire(every)
    expect(fired).toEqual(['once', 'tick', 'tick'])
    expect(recorded.cleared).toEqual([every])
    expect(() => timers['setTimeout']!('code')).toThrow(TypeError)
  })

  it('ends the run with a throw inside a timer callback', () => {
    const { kernel, global, recorded } = setup()
    const id = (global['setTimeout'] as (callback: () => void) => number)(() => {
      throw new SyntaxError('in timer')
    })
    kernel.fire(id)
    expect(recorded.done).toEqual([[1, 'SyntaxError: in timer']])
  })

  it('builds the import() refusal in its own realm', () => {
    const { kernel } = setup()
    expect(kernel.denyImport()).toEqual(new TypeError('import() is not available in run_code programs'))
  })
})
