import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import ToolRuntime, {
  DEFAULT_VALUE_LIMITS,
  ToolRegistrationError,
  type ToolRuntimeConfig,
} from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

const validate = ToolRuntime.Config['~standard'].validate

describe('ToolRuntime config keys', () => {
  it('an unknown (misspelt) key fails the config, naming the key', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(ToolRuntime, { foramts: 'assert' } as ToolRuntimeConfig)).rejects.toThrow(
      /\$\.foramts: unexpected property "foramts"/,
    )
    expect((ctx as { tools?: unknown }).tools).toBeUndefined()
  })

  it('an unknown key inside resultBudget fails too (a misspelt cap is never silently off)', () => {
    const checked = validate({ resultBudget: { maxContentBytes: 4096, perToll: { a: 512 } } })
    expect(checked.issues?.map((issue) => [issue.path, issue.message])).toEqual([
      [['resultBudget', 'perToll'], '$.resultBudget.perToll: unexpected property "perToll"'],
    ])
  })

  it('every documented key is accepted together', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime, {
      mode: 'native',
      resultBudget: { maxContentBytes: 4096 },
      formats: 'assert',
      disposeGraceMs: 500,
      valueLimits: { maxDepth: 64 },
    })
    expect(ctx.tools.assemble({}).mode).toBe('native')
    await ctx.fiber.dispose()
  })
})

describe('ToolRuntime config: defaults, JSON Schema, construction', () => {
  it('fills the same defaults as before, and a resolved config validates to itself', () => {
    const resolvedOf = (input: unknown) => {
      const result = validate(input)
      if (result.issues !== undefined) throw new Error(result.issues.map((issue) => issue.message).join('; '))
      return result.value
    }
    expect(resolvedOf(undefined)).toEqual({
      mode: 'native',
      formats: 'annotate',
      disposeGraceMs: 1000,
      valueLimits: DEFAULT_VALUE_LIMITS,
    })
    const resolved = resolvedOf({ resultBudget: { maxContentBytes: 4096 }, valueLimits: { maxNodes: 7 } })
    expect(resolved.resultBudget).toEqual({
      maxContentBytes: 4096,
      storeBytes: 32 * 1024 * 1024,
      ttlMs: 24 * 60 * 60 * 1000,
    })
    expect(resolved.valueLimits).toEqual({ ...DEFAULT_VALUE_LIMITS, maxNodes: 7 })
    expect(resolvedOf(resolved)).toEqual(resolved)
  })

  it('exposes its JSON Schema: every key, its default and bounds, unknown keys refused', () => {
    const input = ToolRuntime.Config['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
    expect(input).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { enum: ['native', 'code', 'both'], default: 'native' },
        formats: { enum: ['annotate', 'assert'], default: 'annotate' },
        disposeGraceMs: { type: 'number', exclusiveMinimum: 0, default: 1000 },
        resultBudget: {
          required: ['maxContentBytes'],
          properties: { maxContentBytes: { type: 'integer', minimum: 256 } },
          additionalProperties: false,
        },
        valueLimits: { properties: { maxDepth: { default: 128, minimum: 0 } }, additionalProperties: false },
      },
    })
    expect(input.required).toBeUndefined()
    const output = ToolRuntime.Config['~standard'].jsonSchema.output({ target: 'draft-07' })
    expect((output.required as string[]).sort()).toEqual(['disposeGraceMs', 'formats', 'mode', 'valueLimits'])
  })

  it('a runtime constructed directly (no cordis validation) refuses a bad config the same way', () => {
    for (const [config, message] of [
      [{ formats: 'strict' }, /^invalid config: \$\.formats: expected one of "annotate", "assert"/],
      [{ mode: 'neither' }, /^invalid config: \$\.mode: expected one of "native", "code", "both"/],
      [
        { resultBudget: { maxContentBytes: 10 } },
        /\$\.resultBudget\.maxContentBytes: expected number >= 256/,
      ],
      [{ valueLimits: { maxNodes: 0 } }, /\$\.valueLimits\.maxNodes: expected number >= 1, got 0/],
    ] as const) {
      const make = () => new ToolRuntime(new Context(), config as ToolRuntimeConfig)
      expect(make, JSON.stringify(config)).toThrow(ToolRegistrationError)
      expect(make).toThrow(message)
    }
  })

  it('reads the config once, when the runtime starts: calls never read it again', async () => {
    let reads = 0
    const config = {} as ToolRuntimeConfig
    for (const [key, value] of Object.entries({ mode: 'native', formats: 'annotate', disposeGraceMs: 250 }))
      Object.defineProperty(config, key, {
        enumerable: true,
        get: () => {
          reads++
          return value
        },
      })
    const ctx = await createRuntime(config)
    ctx.tools.register(echoTool())
    const atStart = reads
    for (let i = 0; i < 50; i++) expect((await ctx.tools.execute(call('echo'))).isError).toBe(false)
    expect(reads).toBe(atStart)
    await ctx.fiber.dispose()
  })
})
