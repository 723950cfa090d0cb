/**
 * The pure parts of the Pyodide worker, run in-process: the import refusals, the memory cap and
 * the run channel. The escape corpus tests the same parts inside a real worker.
 */
import { DoneStatus, OutputMeter, utf8LineCost } from '@dsh/tools-codemode/runtime-kit'
import { describe, expect, it } from 'vitest'
import type { WorkerPost } from '../src/protocol/messages'
import { EXIT_IMPORTS, REFUSED_IMPORT_PREFIXES, REFUSED_IMPORTS } from '../src/worker/pyodide/boundary'
import { createInterpreterMemory } from '../src/worker/pyodide/interpreter-memory'
import { cappedGrow, WASM_PAGE_BYTES } from '../src/worker/pyodide/memory-cap'
import { isRefusedImport, refuseImports } from '../src/worker/pyodide/refuse-imports'
import { createRunChannel } from '../src/worker/pyodide/run-channel'

describe('refuseImports', () => {
  const original = () => 42

  it('replaces every listed import and prefix family, and leaves the rest alone', () => {
    const names = [
      ...REFUSED_IMPORTS,
      ...REFUSED_IMPORT_PREFIXES.map((prefix) => `${prefix}open`),
      'fd_write',
    ]
    const env: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, original]))
    refuseImports({ env }, () => {})
    for (const name of names.slice(0, -1)) expect(env[name], name).not.toBe(original)
    expect(env.fd_write).toBe(original)
    expect(isRefusedImport('emscripten_websocket_new')).toBe(true)
    expect(isRefusedImport('fd_write')).toBe(false)
  })

  it('answers a refused syscall with -EPERM, system() with -1 and the rest with 0', () => {
    const env: Record<string, unknown> = {
      __syscall_socket: original,
      _maybe_connect_async: original,
      _emscripten_system: original,
      emscripten_run_script_int: original,
    }
    refuseImports({ env }, () => {})
    const call = (name: string) => (env[name] as () => number)()
    expect(call('__syscall_socket')).toBe(-63)
    expect(call('_maybe_connect_async')).toBe(-63)
    expect(call('_emscripten_system')).toBe(-1)
    expect(call('emscripten_run_script_int')).toBe(0)
  })

  it('turns every exit import into the run’s end, with the exit status', () => {
    const env: Record<string, unknown> = Object.fromEntries(EXIT_IMPORTS.map((name) => [name, original]))
    const statuses: number[] = []
    refuseImports({ env }, (status) => statuses.push(status))
    for (const name of EXIT_IMPORTS) (env[name] as (status: number) => void)(3)
    expect(statuses).toEqual(EXIT_IMPORTS.map(() => 3))
  })

  it('ignores an import object without an env record', () => {
    for (const imports of [undefined, null, {}, { env: null }, { env: 'x' }]) {
      expect(() => refuseImports(imports, () => {})).not.toThrow()
    }
  })
})

// The DOM-less lib the package compiles against declares WebAssembly's types, not its values.
interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer
  grow(pages: number): number
}
const Wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: { new (descriptor: { initial: number; maximum: number; shared?: boolean }): WasmMemory }
    }
  }
).WebAssembly
const nativeGrow = Wasm.Memory.prototype.grow as (this: object, pages: number) => number

describe('cappedGrow', () => {
  it('grows a real WebAssembly memory up to the cap, records its size, and refuses past it', () => {
    const memory = new Wasm.Memory({ initial: 1, maximum: 16 })
    const account = createInterpreterMemory(4 * WASM_PAGE_BYTES)
    const grow = cappedGrow(nativeGrow, account)
    expect(grow.call(memory, 3)).toBe(1)
    expect(account.wasmBytes).toBe(4 * WASM_PAGE_BYTES)
    expect(() => grow.call(memory, 1)).toThrow(RangeError)
    expect(memory.buffer.byteLength).toBe(4 * WASM_PAGE_BYTES)
  })

  it('shares the limit with the file bytes charged to the same account', () => {
    const memory = new Wasm.Memory({ initial: 1, maximum: 16 })
    const account = createInterpreterMemory(4 * WASM_PAGE_BYTES)
    account.fileBytes = 2 * WASM_PAGE_BYTES
    const grow = cappedGrow(nativeGrow, account)
    expect(grow.call(memory, 1)).toBe(1)
    expect(() => grow.call(memory, 1)).toThrow(RangeError)
    account.fileBytes = 0
    expect(grow.call(memory, 2)).toBe(2)
  })

  it('reads the size of a shared memory too', () => {
    const memory = new Wasm.Memory({ initial: 2, maximum: 16, shared: true })
    const grow = cappedGrow(nativeGrow, createInterpreterMemory(3 * WASM_PAGE_BYTES))
    expect(grow.call(memory, 1)).toBe(2)
    expect(() => grow.call(memory, 1)).toThrow(RangeError)
  })
})

describe('the run channel', () => {
  function channel(maxArgumentChars = 10) {
    const sent: WorkerPost[] = []
    const exits: number[] = []
    const refused: Array<[number, string, string]> = []
    const run = createRunChannel({
      send: (message) => sent.push(message),
      exit: (code) => exits.push(code),
      utf8Length: (text) => Buffer.byteLength(text, 'utf8'),
      maxArgumentChars,
      refuse: (id, name, message) => refused.push([id, name, message]),
    })
    return { run, sent, exits, refused }
  }

  it('refuses call arguments past the run’s nodes or depth inside the worker, posting nothing', () => {
    const { run, sent, refused } = channel(1_000)
    run.setValueLimits({ nodes: 3, depth: 2 })
    run.call(1, 'echo', '[1,2,3]')
    run.call(2, 'echo', '[[[1]]]')
    run.call(3, 'echo', '[[2]]')
    expect(refused).toEqual([
      [
        1,
        'echo',
        expect.stringContaining('arguments for echo holds more than 3 JSON values (`maxValueNodes`)'),
      ],
      [2, 'echo', 'arguments for echo nests more than 2 levels deep (`maxValueDepth`)'],
    ])
    expect(sent).toEqual([{ k: 'call', i: 3, n: 'echo', a: '[[2]]' }])
  })

  it('turns a result past the run’s nodes into output-limit before posting it', () => {
    const { run, sent } = channel()
    run.setValueLimits({ nodes: 3, depth: 2 })
    run.done(DoneStatus.OK, '{"a":1,"b":2,"c":3}')
    expect(sent).toEqual([
      {
        k: 'done',
        s: DoneStatus.OUTPUT_LIMIT,
        v: expect.stringContaining('the result holds more than 3 JSON values (`maxValueNodes`)'),
      },
    ])
  })

  it('posts lines, calls and one completion, and ends the thread with it', () => {
    const { run, sent, exits } = channel()
    run.log('hi')
    run.call(1, 'echo', '{}')
    run.done(DoneStatus.OK, '3')
    run.done(DoneStatus.EXCEPTION, 'late')
    run.log('after')
    run.call(2, 'echo', '{}')
    expect(sent).toEqual([
      { k: 'log', l: 'hi' },
      { k: 'call', i: 1, n: 'echo', a: '{}' },
      { k: 'done', s: DoneStatus.OK, v: '3' },
    ])
    expect(exits).toEqual([0])
    expect(run.finished()).toBe(true)
  })

  it('stops the run at the output cap, counting an empty line as one byte', () => {
    const { run, sent } = channel()
    run.setOutputLimits(3, 100)
    run.log('')
    run.log('é')
    run.log('')
    expect(sent).toEqual([
      { k: 'log', l: '' },
      { k: 'log', l: 'é' },
      { k: 'done', s: DoneStatus.OUTPUT_LIMIT, v: 'output exceeded maxOutputBytes (3 bytes)' },
    ])
  })

  it('ends the run at the line past maxLogLines: that line posts the completion, nothing after it', () => {
    const { run, sent, exits } = channel()
    run.setOutputLimits(1_000, 2)
    for (let i = 0; i < 100_000; i++) run.log('')
    run.call(1, 'echo', '{}')
    run.done(DoneStatus.OK, '1')
    expect(sent).toEqual([
      { k: 'log', l: '' },
      { k: 'log', l: '' },
      { k: 'done', s: DoneStatus.OUTPUT_LIMIT, v: 'output exceeded maxLogLines (2 lines)' },
    ])
    expect(exits).toEqual([0])
    expect(run.finished()).toBe(true)
  })

  it('lets a run of exactly maxLogLines lines complete', () => {
    const { run, sent } = channel()
    run.setOutputLimits(1_000, 2)
    run.log('a')
    run.log('b')
    run.done(DoneStatus.OK, '1')
    expect(sent).toEqual([
      { k: 'log', l: 'a' },
      { k: 'log', l: 'b' },
      { k: 'done', s: DoneStatus.OK, v: '1' },
    ])
  })

  it('gives the same message as the worker-thread runtime’s meter for the same limits', () => {
    const { run, sent } = channel()
    run.setOutputLimits(1_000, 1)
    run.log('a')
    run.log('b')
    const meter = new OutputMeter({ maxOutputBytes: 1_000, maxLogLines: 1 }, utf8LineCost)
    meter.admitLine('a')
    expect(sent.at(-1)).toEqual({ k: 'done', s: DoneStatus.OUTPUT_LIMIT, v: meter.admitLine('b') })
  })

  it('ends a run whose call arguments pass the cap instead of posting them', () => {
    const { run, sent } = channel(4)
    run.call(1, 'echo', '12345')
    expect(sent).toEqual([
      { k: 'done', s: DoneStatus.EXCEPTION, v: 'a tool call carried more than 4 characters of arguments' },
    ])
  })

  it('posts a completion without a payload as such, and text for anything else', () => {
    const first = channel()
    first.run.done(DoneStatus.OK, null)
    expect(first.sent).toEqual([{ k: 'done', s: DoneStatus.OK }])
    const second = channel()
    second.run.done(DoneStatus.EXCEPTION, 7)
    expect(second.sent).toEqual([{ k: 'done', s: DoneStatus.EXCEPTION, v: '7' }])
  })
})
