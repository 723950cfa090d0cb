import { Context } from '@deepseek-ai/cordis'
import { sharedFieldTuning } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'
import PyodideCodeRuntime, {
  DEFAULT_PYODIDE_RUNTIME_CONFIG,
  isPyodideRuntimeError,
  memoryBudget,
  PyodideRuntimeConfigError,
  PyodideRuntimeConfigSchema,
  resolvePyodideRuntimeConfig,
} from '../src/index'

describe('config', () => {
  it('applies the defaults: 64 MiB output, 512 MiB interpreter memory, one warm interpreter', () => {
    expect(resolvePyodideRuntimeConfig()).toEqual(DEFAULT_PYODIDE_RUNTIME_CONFIG)
    expect(DEFAULT_PYODIDE_RUNTIME_CONFIG).toMatchObject({
      maxOutputBytes: 64 * 1024 * 1024,
      maxMemoryMb: 512,
      warmWorkers: 1,
    })
  })

  it('bounds maxMemoryMb to what a 32-bit WebAssembly memory can hold', () => {
    expect(resolvePyodideRuntimeConfig({ maxMemoryMb: 4095 }).maxMemoryMb).toBe(4095)
    expect(() => resolvePyodideRuntimeConfig({ maxMemoryMb: 4096 })).toThrow(PyodideRuntimeConfigError)
    expect(() => resolvePyodideRuntimeConfig({ maxMemoryMb: 127 })).toThrow(PyodideRuntimeConfigError)
    expect(resolvePyodideRuntimeConfig({ maxMemoryMb: 128 }).maxMemoryMb).toBe(128)
  })

  it('caps log lines at 10 000 by default, like the worker-thread runtime', () => {
    expect(DEFAULT_PYODIDE_RUNTIME_CONFIG.maxLogLines).toBe(10_000)
    expect(resolvePyodideRuntimeConfig({ maxLogLines: 1 }).maxLogLines).toBe(1)
    expect(() => resolvePyodideRuntimeConfig({ maxLogLines: 0 })).toThrow(PyodideRuntimeConfigError)
  })

  it('splits maxMemoryMb: a quarter to the worker heap, an eighth to output, the rest to memory and files', () => {
    const MIB = 1024 * 1024
    expect(memoryBudget(resolvePyodideRuntimeConfig())).toEqual({
      oldGenerationMb: 112,
      youngGenerationMb: 16,
      outputBytes: 64 * MIB,
      interpreterBytes: 320 * MIB,
    })
    expect(memoryBudget(resolvePyodideRuntimeConfig({ maxMemoryMb: 128, maxOutputBytes: 1000 }))).toEqual({
      oldGenerationMb: 28,
      youngGenerationMb: 4,
      outputBytes: 1000,
      interpreterBytes: 80 * MIB,
    })
    // Every part together stays within the budget, whatever the other keys say.
    for (const maxMemoryMb of [128, 300, 512, 1000, 4095]) {
      const budget = memoryBudget(
        resolvePyodideRuntimeConfig({
          maxMemoryMb,
          maxOldGenerationSizeMb: 1_048_576,
          maxOutputBytes: 2 ** 40,
        }),
      )
      const total =
        (budget.oldGenerationMb + budget.youngGenerationMb) * MIB +
        budget.outputBytes +
        budget.interpreterBytes
      expect(total).toBeLessThanOrEqual(maxMemoryMb * MIB)
    }
  })

  it('accepts maxWallMs up to 2147483647 and refuses one more', () => {
    expect(resolvePyodideRuntimeConfig({ maxWallMs: 2_147_483_647 }).maxWallMs).toBe(2_147_483_647)
    expect(() => resolvePyodideRuntimeConfig({ maxWallMs: 2_147_483_648 })).toThrow(PyodideRuntimeConfigError)
  })

  it('lists every invalid field and unknown key in one error', () => {
    let caught: unknown
    try {
      resolvePyodideRuntimeConfig({ computeMs: 0, warmWorkers: 1.5, colour: 'red' } as never)
    } catch (error) {
      caught = error
    }
    expect(isPyodideRuntimeError(caught)).toBe(true)
    expect((caught as PyodideRuntimeConfigError).code).toBe('INVALID_RUNTIME_CONFIG')
    expect((caught as PyodideRuntimeConfigError).issues).toHaveLength(3)
  })

  it('exposes a standard-schema validator that cordis applies to the service', async () => {
    const ok = PyodideRuntimeConfigSchema['~standard'].validate({ maxConcurrentRuns: 2 })
    expect(ok).toEqual({ value: { ...DEFAULT_PYODIDE_RUNTIME_CONFIG, maxConcurrentRuns: 2 } })
    const bad = PyodideRuntimeConfigSchema['~standard'].validate({ maxMemoryMb: 1 })
    expect(bad.issues?.[0]?.message).toMatch(/maxMemoryMb/)
    const ctx = new Context()
    await ctx.plugin(PyodideCodeRuntime, { warmWorkers: 0 })
    expect(ctx.codeRuntime.language).toBe('python')
    expect((ctx.codeRuntime as PyodideCodeRuntime).config.warmWorkers).toBe(0)
    await ctx.fiber.dispose()
  })
})

describe('the fields every runtime shares', () => {
  // With the kit's own defaults and bounds (tools-codemode's runtime-config-fields.spec.ts), these
  // are the bounds and defaults this runtime always had.
  it("are the runtime kit's, tuned only where the interpreter needs it", () => {
    expect(sharedFieldTuning(PyodideRuntimeConfigSchema)).toEqual({
      maxValueDepth: { maximum: 1000 },
      maxOldGenerationSizeMb: { minimum: 64 },
      maxConcurrentRuns: { default: 4 },
      warmWorkers: { default: 1 },
    })
  })
})
