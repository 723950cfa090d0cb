import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  createScope,
  defineTool,
  isToolsError,
  RESERVED_TOOL_NAME,
  type ToolDefinition,
  ToolErrorCode,
  ToolRegistrationError,
} from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

describe('registry', () => {
  it('runs the seed read_file example end to end', async () => {
    const ctx: Context = await createRuntime()
    // --- the seed example, verbatim apart from the import path ---
    ctx.tools.register(
      defineTool({
        name: 'read_file',
        description: 'Read a file from disk.',
        parameters: {
          path: { type: 'string', required: true, description: 'Absolute file path' },
          offset: { type: 'number' },
          limit: { type: 'number' },
        },
        output: {
          schema: { type: 'string' },
          render: (_args, value) => [{ type: 'text', text: value }],
        },
        async execute(args, exec) {
          // args is typed: { path: string; offset?: number; limit?: number }
          return readFile(args.path, { encoding: 'utf8', signal: exec.signal })
        },
      }),
    )
    const dir = await mkdtemp(join(tmpdir(), 'tools-core-'))
    const file = join(dir, 'hello.txt')
    await writeFile(file, 'hello world')
    const result = await ctx.tools.execute(call('read_file', { path: file }))
    expect(result).toEqual({
      isError: false,
      value: 'hello world',
      content: [{ type: 'text', text: 'hello world' }],
    })
    const missing = await ctx.tools.execute(call('read_file', {}))
    expect(missing.isError && missing.error.info?.code).toBe('INVALID_ARGS')
  })

  it('defineTool types args from parameters and the body from output.schema', () => {
    const tool = defineTool({
      name: 'typed',
      description: '',
      parameters: { path: { type: 'string', required: true }, limit: { type: 'integer' } },
      output: {
        schema: {
          type: 'object',
          properties: { lines: { type: 'array', items: { type: 'string' }, required: true } },
          additionalProperties: false,
        },
        render: (_args, value) => [{ type: 'text', text: value.lines.join('\n') }],
      },
      execute: (args) => ({ lines: [args.path] }),
    })
    expectTypeOf<Parameters<typeof tool.execute>[0]>().toEqualTypeOf<{ path: string; limit?: number }>()
    expectTypeOf<Awaited<ReturnType<typeof tool.execute>>>().toEqualTypeOf<{ lines: string[] }>()
  })

  it('register returns a disposer that removes the tool', async () => {
    const ctx = await createRuntime()
    const dispose = ctx.tools.register(echoTool())
    expect(ctx.tools.get('echo')?.name).toBe('echo')
    expect(ctx.tools.schemas().map((s) => s.name)).toEqual(['echo'])
    dispose()
    expect(ctx.tools.get('echo')).toBeUndefined()
    const result = await ctx.tools.execute(call('echo'))
    expect(result.isError && result.error.info?.code).toBe(ToolErrorCode.UNKNOWN_TOOL)
  })

  it('a duplicate name in one layer throws', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    expect(() => ctx.tools.register(echoTool())).toThrow(ToolRegistrationError)
  })

  it('the run_code name is reserved in every mode', async () => {
    for (const mode of ['native', 'code', 'both'] as const) {
      const ctx = await createRuntime({ mode })
      expect(() => ctx.tools.register(echoTool(RESERVED_TOOL_NAME))).toThrow(/reserved/)
      const scope = createScope(ctx, `agent-${mode}`)
      expect(() => scope.ctx.tools.register(echoTool(RESERVED_TOOL_NAME))).toThrow(/reserved/)
      scope.ctx.tools.presentAs(mode)
      expect(() => scope.ctx.tools.register(echoTool(RESERVED_TOOL_NAME))).toThrow(/reserved/)
    }
  })

  it('a duplicate name in one scope layer throws; the same name in another layer does not', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const a = createScope(ctx, 'a')
    const b = createScope(ctx, 'b')
    a.ctx.tools.register(echoTool())
    b.ctx.tools.register(echoTool())
    expect(() => a.ctx.tools.register(echoTool())).toThrow(/already registered in scope `a`/)
  })

  it('a plugin loaded through a scope ctx registers into that scope and is disposed with its fiber', async () => {
    const ctx = await createRuntime()
    const scope = createScope(ctx, 'a')
    const fiber = scope.ctx.plugin({
      name: 'scoped-plugin',
      inject: ['tools'],
      apply(pluginCtx: Context) {
        pluginCtx.tools.register(echoTool('scoped'))
      },
    })
    await fiber
    expect(ctx.tools.get('scoped', 'a')?.name).toBe('scoped')
    expect(ctx.tools.get('scoped')).toBeUndefined()
    await fiber.dispose()
    expect(ctx.tools.get('scoped', 'a')).toBeUndefined()
  })

  it('rejects a missing output declaration and bad timeoutMs', async () => {
    const ctx = await createRuntime()
    const base = echoTool('t') as ToolDefinition
    const { output: _output, ...noOutput } = base
    expect(() => ctx.tools.register(noOutput as unknown as ToolDefinition)).toThrow(/output/)
    expect(() =>
      ctx.tools.register({ ...base, output: { ...base.output, schema: { type: 'date' } as never } }),
    ).toThrow(/output.schema/)
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => ctx.tools.register({ ...base, timeoutMs })).toThrow(/timeoutMs/)
    }
    expect(() => ctx.tools.register({ ...base, timeoutMs: 50 })).not.toThrow()
    try {
      ctx.tools.register(noOutput as unknown as ToolDefinition)
    } catch (error) {
      expect(isToolsError(error)).toBe(true)
    }
  })

  it('schemas() reports name, description, parameters and output schema, without execute', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const [schema] = ctx.tools.schemas()
    expect(schema).toEqual({
      name: 'echo',
      description: 'Echo (echo).',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      outputSchema: { type: 'string' },
    })
    expect(Object.isFrozen(schema)).toBe(true)
    expect('execute' in schema!).toBe(false)
  })

  it('a plugin that is unloaded takes its tools, guards and listeners with it', async () => {
    const ctx = await createRuntime()
    let listened = 0
    const fiber = ctx.plugin({
      name: 'my-plugin',
      inject: ['tools'],
      apply(pluginCtx: Context) {
        pluginCtx.tools.register(echoTool('plugged'))
        pluginCtx.tools.guard((exec) => (exec.name === 'echo' ? 'plugin guard' : undefined))
        pluginCtx.on('tools/result', () => {
          listened++
        })
      },
    })
    await fiber
    ctx.tools.register(echoTool())
    expect((await ctx.tools.execute(call('plugged'))).isError).toBe(false)
    expect((await ctx.tools.execute(call('echo'))).isError).toBe(true)
    expect(listened).toBe(2)
    await fiber.dispose()
    expect(ctx.tools.get('plugged')).toBeUndefined()
    expect((await ctx.tools.execute(call('echo'))).isError).toBe(false)
    expect(listened).toBe(2)
  })

  it('emits tools/changed on register and dispose', async () => {
    const ctx = await createRuntime()
    let changes = 0
    ctx.on('tools/changed', () => {
      changes++
    })
    const dispose = ctx.tools.register(echoTool())
    dispose()
    expect(changes).toBe(2)
  })

  it('validates the config mode', async () => {
    await expect(createRuntime({ mode: 'weird' as never })).rejects.toThrow()
    const ctx = await createRuntime({ mode: 'both' })
    expect(ctx.tools.modeOf()).toBe('both')
    expect((await createRuntime()).tools.modeOf()).toBe('native')
  })

  it('defineTool rejects a malformed parameter spec at definition time', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        parameters: { x: { type: 'strin' } as never },
        output: { schema: { type: 'null' }, render: () => [] },
        execute: () => null,
      }),
    ).toThrow()
  })
})
