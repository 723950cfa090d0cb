import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  type JsonValue,
  type ObjectJsonSchema,
  type ToolDefinition,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const PARAMETERS: ObjectJsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    mode: { type: 'string', enum: ['read', 'write'] },
    options: {
      type: 'object',
      properties: { recursive: { type: 'boolean' }, depth: { type: 'integer' } },
      required: ['recursive'],
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
}

/** A raw tool that records the arguments its body receives. */
function recordingTool(seen: JsonValue[]): ToolDefinition {
  return {
    name: 'files',
    description: 'List files.',
    parameters: PARAMETERS,
    output: { schema: {}, render: () => [{ type: 'text', text: 'ok' }] },
    execute: (args: JsonValue) => {
      seen.push(args)
      return null
    },
  }
}

/** Canonical arguments of PARAMETERS: optional members present or absent. */
const canonicalArgs = fc.record(
  {
    path: fc.string(),
    limit: fc.integer(),
    mode: fc.constantFrom('read', 'write'),
    options: fc.record({ recursive: fc.boolean(), depth: fc.integer() }, { requiredKeys: ['recursive'] }),
    tags: fc.array(fc.string(), { maxLength: 3 }),
  },
  { requiredKeys: ['path'] },
)

/** What a strict-mode model sends for canonical args: every optional member present, `null` when absent. */
function strictForm(args: Record<string, unknown>): Record<string, unknown> {
  const options = args.options as Record<string, unknown> | undefined
  return {
    path: args.path,
    limit: args.limit ?? null,
    mode: args.mode ?? null,
    options: options === undefined ? null : { recursive: options.recursive, depth: options.depth ?? null },
    tags: args.tags ?? null,
  }
}

describe('provider dialects in the runtime', () => {
  it('assemble({ dialect }) returns native definitions the provider checker accepts', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(recordingTool([]))
    const strict = ctx.tools.assemble({ dialect: 'openai-strict' }).tools[0]!
    expect(strict.parameters.required).toEqual(['path', 'limit', 'mode', 'options', 'tags'])
    expect(checkOpenAiStrictSchema(strict.parameters)).toEqual([])
    const gemini = ctx.tools.assemble({ dialect: 'gemini' }).tools[0]!
    expect(gemini.parameters.type as string).toBe('OBJECT')
    expect(checkGeminiSchema(gemini.parameters)).toEqual([])
    expect(ctx.tools.assemble({ dialect: 'json-schema' }).tools[0]!.parameters).toEqual(PARAMETERS)
    expect(ctx.tools.assemble().tools[0]!.parameters).toEqual(PARAMETERS)
    expect(() => ctx.tools.assemble({ dialect: 'klingon' as never })).toThrow(/unknown dialect `klingon`/)
    // the conversion is made once per registered definition and dialect
    expect(ctx.tools.assemble({ dialect: 'gemini' }).tools[0]).toBe(gemini)
  })

  it('a strict-mode call is read back to canonical args before validation, policy and the body', async () => {
    const ctx = await createRuntime()
    const seen: JsonValue[] = []
    const policy: JsonValue[] = []
    ctx.tools.register(recordingTool(seen))
    ctx.on('tools/pre-execute', (execution, next) => {
      policy.push(execution.arguments)
      return next()
    })
    const args = {
      path: '/x',
      limit: null,
      mode: null,
      options: { recursive: true, depth: null },
      tags: null,
    }
    const result = await ctx.tools.execute(call('files', args, { dialect: 'openai-strict' }))
    expect(result.isError).toBe(false)
    expect(seen).toEqual([{ path: '/x', options: { recursive: true } }])
    expect(policy).toEqual(seen)
    // without the dialect the same nulls are canonical arguments, and invalid
    const raw = await ctx.tools.execute(call('files', args))
    expect(raw.isError && raw.error.info?.code).toBe('INVALID_ARGS')
    expect(seen).toHaveLength(1)
  })

  it('executeBatch reads each input back under its own dialect', async () => {
    const ctx = await createRuntime()
    const seen: JsonValue[] = []
    ctx.tools.register(recordingTool(seen))
    await ctx.tools.executeBatch([
      call(
        'files',
        { path: 'a', limit: null, mode: 'read', options: null, tags: null },
        { dialect: 'openai-strict' },
      ),
      call('files', { path: 'b', mode: 'read' }, { dialect: 'gemini' }),
    ])
    expect(seen).toEqual([
      { path: 'a', mode: 'read' },
      { path: 'b', mode: 'read' },
    ])
  })

  it('rejects an unknown dialect on execute as a caller error', async () => {
    const ctx = await createRuntime()
    await expect(ctx.tools.execute(call('files', {}, { dialect: 'x' as never }))).rejects.toThrow(TypeError)
  })

  it('property: for canonical args A, the strict-mode form of A reaches the body as A', async () => {
    const ctx = await createRuntime()
    const seen: JsonValue[] = []
    ctx.tools.register(recordingTool(seen))
    await fc.assert(
      fc.asyncProperty(canonicalArgs, async (args) => {
        seen.length = 0
        const result = await ctx.tools.execute(call('files', strictForm(args), { dialect: 'openai-strict' }))
        expect(result.isError).toBe(false)
        expect(seen).toEqual([args])
      }),
      { numRuns: 200, seed: 12 },
    )
  })
})
