import { sharedFieldTuning } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WORKER_THREAD_RUNTIME_CONFIG,
  isWorkerRuntimeError,
  resolveWorkerThreadRuntimeConfig,
  WorkerRuntimeConfigError,
  WorkerThreadRuntimeConfigSchema,
} from '../src/index'
import { runWorkerOptions } from '../src/pool/worker-handle'

describe('config', () => {
  it('applies the defaults, 64 MiB output among them', () => {
    expect(resolveWorkerThreadRuntimeConfig()).toEqual(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG)
    expect(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG.maxOutputBytes).toBe(64 * 1024 * 1024)
    expect(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG.maxLogLines).toBe(10_000)
  })

  it('accepts isolation thread or process, default thread, and refuses anything else', () => {
    expect(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG.isolation).toBe('thread')
    expect(resolveWorkerThreadRuntimeConfig({ isolation: 'process' }).isolation).toBe('process')
    for (const isolation of ['Process', 'vm', 1, null, true]) {
      expect(() => resolveWorkerThreadRuntimeConfig({ isolation } as never)).toThrow(
        /\$\.isolation: expected (one of "thread", "process"|string)/,
      )
    }
  })

  it('accepts maxQueuedRuns from 0 to 1048576, default 1024, and refuses the rest', () => {
    expect(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG.maxQueuedRuns).toBe(1024)
    expect(resolveWorkerThreadRuntimeConfig({ maxQueuedRuns: 0 }).maxQueuedRuns).toBe(0)
    expect(resolveWorkerThreadRuntimeConfig({ maxQueuedRuns: 1_048_576 }).maxQueuedRuns).toBe(1_048_576)
    for (const maxQueuedRuns of [-1, 1.5, 1_048_577, Number.POSITIVE_INFINITY, Number.NaN, '8', null]) {
      expect(() => resolveWorkerThreadRuntimeConfig({ maxQueuedRuns } as never)).toThrow(
        /\$\.maxQueuedRuns: expected (integer|number [<>]= (0|1048576))/,
      )
    }
  })

  it('accepts hostSpinMicros and workerSpinMicros from 0 to 1000 µs, defaults 30 and 50, and refuses the rest', () => {
    expect(DEFAULT_WORKER_THREAD_RUNTIME_CONFIG).toMatchObject({ hostSpinMicros: 30, workerSpinMicros: 50 })
    for (const key of ['hostSpinMicros', 'workerSpinMicros'] as const) {
      expect(resolveWorkerThreadRuntimeConfig({ [key]: 0 })[key]).toBe(0)
      expect(resolveWorkerThreadRuntimeConfig({ [key]: 1_000 })[key]).toBe(1_000)
      for (const value of [-1, 0.5, 1_001, Number.POSITIVE_INFINITY, Number.NaN, '30', null]) {
        expect(() => resolveWorkerThreadRuntimeConfig({ [key]: value } as never)).toThrow(
          new RegExp(`\\$\\.${key}: expected (integer|number [<>]= (0|1000))`),
        )
      }
    }
  })

  it('accepts maxWallMs up to 2147483647 and refuses one more', () => {
    expect(resolveWorkerThreadRuntimeConfig({ maxWallMs: 2_147_483_647 }).maxWallMs).toBe(2_147_483_647)
    expect(() => resolveWorkerThreadRuntimeConfig({ maxWallMs: 2_147_483_648 })).toThrow(
      WorkerRuntimeConfigError,
    )
  })

  it('lists every invalid field and unknown key in one error', () => {
    let caught: unknown
    try {
      resolveWorkerThreadRuntimeConfig({ computeMs: 0, warmWorkers: 1.5, colour: 'red' } as never)
    } catch (error) {
      caught = error
    }
    expect(isWorkerRuntimeError(caught)).toBe(true)
    expect((caught as WorkerRuntimeConfigError).code).toBe('INVALID_RUNTIME_CONFIG')
    expect((caught as WorkerRuntimeConfigError).issues).toHaveLength(3)
  })

  it('defaults to the QuickJS engine, accepts node-vm, and refuses any other engine', () => {
    expect(resolveWorkerThreadRuntimeConfig().engine).toBe('quickjs')
    expect(resolveWorkerThreadRuntimeConfig({ engine: 'node-vm' }).engine).toBe('node-vm')
    for (const engine of ['v8', 'QuickJS', '', 1, null]) {
      expect(() => resolveWorkerThreadRuntimeConfig({ engine } as never)).toThrow(
        /\$\.engine: expected (one of "quickjs", "node-vm"|string)/,
      )
    }
  })

  it('hands a QuickJS worker the compiled engine and its limits', () => {
    const data = runWorkerOptions({ maxOldGenerationSizeMb: 48, engine: 'quickjs', computeMs: 700 })
      .workerData as { memoryLimitBytes: number; computeMs: number; wasm: { module?: unknown } }
    expect(data.memoryLimitBytes).toBe(48 * 1024 * 1024)
    expect(data.computeMs).toBe(700)
    expect(Object.prototype.toString.call(data.wasm.module)).toBe('[object WebAssembly.Module]')
    // A worker in a run process of its own gets the bytes: a compiled module cannot cross IPC.
    const portable = runWorkerOptions({ maxOldGenerationSizeMb: 48, engine: 'quickjs', isolation: 'process' })
      .workerData as { wasm: { bytes?: unknown } }
    expect(portable.wasm.bytes).toBeInstanceOf(ArrayBuffer)
    expect(runWorkerOptions({ maxOldGenerationSizeMb: 48, engine: 'node-vm' }).workerData).toBeUndefined()
  })

  it('exposes a standard-schema validator for cordis', () => {
    const ok = WorkerThreadRuntimeConfigSchema['~standard'].validate({ maxConcurrentRuns: 2 })
    expect(ok).toEqual({ value: { ...DEFAULT_WORKER_THREAD_RUNTIME_CONFIG, maxConcurrentRuns: 2 } })
    const bad = WorkerThreadRuntimeConfigSchema['~standard'].validate({ maxOldGenerationSizeMb: 1 })
    expect(bad.issues?.[0]?.message).toMatch(/maxOldGenerationSizeMb/)
  })

  it('spawns workers with an empty environment, no execArgv and the heap cap', () => {
    const options = runWorkerOptions({ maxOldGenerationSizeMb: 48 })
    expect(options.env).toEqual({})
    expect(options.execArgv).toEqual([])
    expect(options.resourceLimits).toEqual({ maxOldGenerationSizeMb: 48 })
    expect(options.eval).toBe(true)
  })
})

describe('the fields every runtime shares', () => {
  // With the kit's own defaults and bounds (tools-codemode's runtime-config-fields.spec.ts), these
  // are the bounds and defaults this runtime always had.
  it("are the runtime kit's, untuned", () => {
    expect(sharedFieldTuning(WorkerThreadRuntimeConfigSchema)).toEqual({})
  })
})
