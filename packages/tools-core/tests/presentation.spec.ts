import { describe, expect, it } from 'vitest'
import {
  type CodeModeProvider,
  createScope,
  defineTool,
  type PromptSection,
  ToolAssemblyError,
  type ToolExecutionToken,
} from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

function provider(log: unknown[] = []): CodeModeProvider {
  return {
    transport: defineTool({
      name: 'run_code',
      description: 'Run a program.',
      parameters: {
        code: { type: 'string', required: true },
        description: { type: 'string', required: true },
      },
      output: {
        schema: {
          type: 'object',
          properties: { logs: { type: 'array', items: { type: 'string' }, required: true } },
          additionalProperties: true,
        },
        render: (_args, value) => [{ type: 'text', text: value.logs.join('\n') }],
      },
      execute: () => ({ logs: ['ran'] }),
    }),
    sections(input): PromptSection[] {
      log.push({ ...input, tools: input.tools.map((t) => t.name) })
      return [
        { id: 'tools:code-only', order: 100, text: input.mode === 'code' ? 'only run_code' : '' },
        { id: 'tools:sdk', order: 150, text: `sdk for ${input.tools.map((t) => t.name).join(',')}` },
      ]
    },
  }
}

describe('presenters', () => {
  const tool = defineTool({
    name: 'show',
    description: 'A tool with presenters.',
    parameters: { path: { type: 'string', required: true } },
    output: {
      schema: { type: 'string' },
      render: (_args, value) => [{ type: 'text', text: value }],
    },
    execute: (args) => args.path,
    presentCall: (args) => ({ card: 'generic', title: `show ${args.path}` }),
    presentResult: (args, result, meta) => ({
      card: 'generic',
      title: args.path,
      content: `${result.isError}:${JSON.stringify(meta)}`,
    }),
  })

  it('get soft-validated args and fall back to undefined for args they cannot handle', () => {
    expect(tool.presentCall?.({ path: 'a.txt' })).toEqual({ card: 'generic', title: 'show a.txt' })
    expect(tool.presentCall?.({ path: 3 } as never)).toBeUndefined()
    expect(tool.presentCall?.(undefined as never)).toBeUndefined()
    const record = { isError: false, content: [] }
    expect(tool.presentResult?.({ path: 'a' }, record, undefined)).toEqual({
      card: 'generic',
      title: 'a',
      content: 'false:undefined',
    })
    expect(tool.presentResult?.({} as never, record, undefined)).toBeUndefined()
  })

  it('args that cannot even be read (revoked proxy, throwing getter) fall back instead of crashing', () => {
    const proxy = Proxy.revocable({ path: 'a' }, {})
    proxy.revoke()
    const getter = {
      get path(): string {
        throw new Error('getter ran')
      },
    }
    const record = { isError: false, content: [] }
    const safe = defineTool({
      name: 'safe',
      description: '',
      parameters: { path: { type: 'string', required: true } },
      output: { schema: { type: 'null' }, render: () => [] },
      execute: () => null,
      isConcurrencySafe: () => true,
    })
    for (const args of [proxy.proxy, getter]) {
      expect(tool.presentCall?.(args as never)).toBeUndefined()
      expect(tool.presentResult?.(args as never, record, undefined)).toBeUndefined()
      expect(safe.isConcurrencySafe?.(args as never)).toBe(false)
    }
  })

  it('a throwing presenter falls back instead of crashing replay', () => {
    const fragile = defineTool({
      name: 'fragile',
      description: '',
      parameters: {},
      output: { schema: { type: 'null' }, render: () => [] },
      execute: () => null,
      presentCall: () => {
        throw new Error('boom')
      },
    })
    expect(fragile.presentCall?.({})).toBeUndefined()
  })
})

describe('assemble', () => {
  it('native: visible schemas as native tools, toolOrder first', async () => {
    const ctx = await createRuntime()
    for (const name of ['a', 'b', 'c']) ctx.tools.register(echoTool(name))
    const assembly = ctx.tools.assemble({ toolOrder: ['c'] })
    expect(assembly.mode).toBe('native')
    expect(assembly.tools.map((t) => t.name)).toEqual(['c', 'a', 'b'])
    expect(assembly.tools[0]).toEqual({ name: 'c', description: 'Echo (c).', parameters: expect.any(Object) })
    expect(assembly.sections).toEqual([])
    expect(() => ctx.tools.assemble({ toolOrder: ['run_code'] })).toThrow(/does not contribute/)
    expect(() => ctx.tools.assemble({ toolOrder: ['zzz'] })).toThrow(/does not contribute/)
  })

  it('a non-native mode without a provider fails loudly', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    expect(() => ctx.tools.assemble()).toThrow(/Code Mode provider/)
    const native = await createRuntime()
    const s = createScope(native, 's')
    s.ctx.tools.presentAs('both')
    expect(() => s.ctx.tools.assemble()).toThrow(/Code Mode provider/)
    expect(() => native.tools.assemble()).not.toThrow()
  })

  it('code: only the run_code transport plus the provider sections', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    ctx.tools.register(echoTool('grep'))
    const log: unknown[] = []
    ctx.tools.provideCodeMode(provider(log))
    const assembly = ctx.tools.assemble()
    expect(assembly.tools.map((t) => t.name)).toEqual(['run_code'])
    expect(assembly.sections.map((s) => s.id)).toEqual(['tools:code-only', 'tools:sdk'])
    expect(log).toEqual([{ mode: 'code', tools: ['grep'] }])
    expect(() => ctx.tools.assemble({ toolOrder: ['grep'] })).toThrow(/does not contribute/)
    expect(ctx.tools.assemble({ toolOrder: ['run_code'] }).tools.map((t) => t.name)).toEqual(['run_code'])
  })

  it('both: native tools, then run_code, plus sections for the scope', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('grep'))
    ctx.tools.register(echoTool('read'))
    const log: unknown[] = []
    ctx.tools.provideCodeMode(provider(log))
    const s = createScope(ctx, 's')
    s.ctx.tools.presentAs('both')
    s.ctx.tools.restrict({ deny: ['read'] })
    const assembly = s.ctx.tools.assemble()
    expect(assembly.mode).toBe('both')
    expect(assembly.tools.map((t) => t.name)).toEqual(['grep', 'run_code'])
    expect(log).toEqual([{ agent: 's', mode: 'both', tools: ['grep'] }])
    // schemas() still reports capabilities, never the transport
    expect(s.ctx.tools.schemas().map((t) => t.name)).toEqual(['grep'])
  })

  it('a provider that cannot render an SDK for the runtime language fails assemble() loudly', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    ctx.tools.register(echoTool('grep'))
    ctx.tools.provideCodeMode({
      ...provider(),
      sections() {
        throw new Error('no SDK renderer for runtime language `ruby`')
      },
    })
    expect(() => ctx.tools.assemble()).toThrow('no SDK renderer for runtime language `ruby`')
  })

  it('toolOrder naming a tool twice throws', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('a'))
    expect(() => ctx.tools.assemble({ toolOrder: ['a', 'a'] })).toThrow(/twice/)
  })

  it('a throwing system-prompt/assemble listener fails loudly, naming the phase', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('a'))
    ctx.on('system-prompt/assemble', () => {
      throw new Error('listener broke')
    })
    expect(() => ctx.tools.assemble()).toThrow(ToolAssemblyError)
    expect(() => ctx.tools.assemble()).toThrow('a system-prompt/assemble listener failed: listener broke')
  })

  it('scoped system-prompt/assemble listeners see only their agent', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('a'))
    const s = createScope(ctx, 's')
    s.ctx.on('system-prompt/assemble', (_assembly, _options, next) => ({ ...next(), tools: [] }))
    expect(ctx.tools.assemble().tools.map((t) => t.name)).toEqual(['a'])
    expect(s.ctx.tools.assemble().tools).toEqual([])
  })

  it('the system-prompt/assemble waterfall may replace the assembly (authoritative)', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('a'))
    ctx.on('system-prompt/assemble', (assembly, options, next) => {
      const inner = next()
      expect(options).toEqual({ toolOrder: ['a'] })
      return { ...inner, sections: [...assembly.sections, { id: 'extra', order: 1, text: 'hi' }] }
    })
    const assembly = ctx.tools.assemble({ toolOrder: ['a'] })
    expect(assembly.sections).toEqual([{ id: 'extra', order: 1, text: 'hi' }])
  })
})

describe('Code Mode seam', () => {
  it('run_code is callable only with a provider and a non-native effective mode', async () => {
    const ctx = await createRuntime()
    const unknown = await ctx.tools.execute(call('run_code', { code: '', description: '' }))
    expect(unknown.isError && unknown.error.info?.code).toBe('UNKNOWN_TOOL')
    ctx.tools.provideCodeMode(provider())
    const stillNative = await ctx.tools.execute(call('run_code', { code: '', description: '' }))
    expect(stillNative.isError && stillNative.error.info?.code).toBe('UNKNOWN_TOOL')
    const s = createScope(ctx, 's')
    s.ctx.tools.presentAs('code')
    const ran = await s.ctx.tools.execute(call('run_code', { code: 'x', description: 'y' }))
    expect(ran).toEqual({
      isError: false,
      value: { logs: ['ran'] },
      content: [{ type: 'text', text: 'ran' }],
    })
    expect(s.ctx.tools.get('run_code')?.name).toBe('run_code')
    expect(ctx.tools.get('run_code')).toBeUndefined()
    const nested = await s.ctx.tools.execute(
      call('run_code', { code: 'x', description: 'y' }, { parent: Symbol('p') as ToolExecutionToken }),
    )
    expect(nested.isError && nested.error.info?.code).toBe('UNKNOWN_TOOL')
  })

  it('one provider at a time, disposed with the caller', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    const undo = ctx.tools.provideCodeMode(provider())
    expect(() => ctx.tools.provideCodeMode(provider())).toThrow(/already/)
    undo()
    expect(() => ctx.tools.assemble()).toThrow(/provider/)
    expect(() => ctx.tools.provideCodeMode({ ...provider(), transport: echoTool('not_run_code') })).toThrow(
      /run_code/,
    )
  })
})
