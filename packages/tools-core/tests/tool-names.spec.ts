import { describe, expect, it } from 'vitest'
import { createScope, defineTool, ToolRegistrationError } from '../src/index'
import { closestNames } from '../src/internal/closest-names'
import { call, createRuntime, echoTool } from './fixtures/runtime'

function rawTool(name: string) {
  return {
    name,
    description: 'raw',
    parameters: { type: 'object' as const },
    output: { schema: {}, render: () => [] },
    execute: () => null,
  }
}

describe('tool names', () => {
  const invalid = [
    'has space',
    'dot.name',
    'slash/name',
    'colon:name',
    'x'.repeat(65),
    'naïve',
    'new\nline',
    'tab\t',
    'zero\u200bwidth',
    'line\u2028sep',
    '"quoted"',
    '*/',
    '名前',
    'emoji😀',
  ]

  it.each(invalid)('refuses %j at registration with an error naming the rule', async (name) => {
    const ctx = await createRuntime()
    for (const definition of [echoTool(name), rawTool(name)]) {
      let thrown: unknown
      try {
        ctx.tools.register(definition)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(ToolRegistrationError)
      expect((thrown as Error).message).toContain('^[A-Za-z0-9_-]{1,64}$')
    }
    expect(ctx.tools.schemas().map((schema) => schema.name)).toEqual([])
  })

  it('accepts every name of the provider-safe set, up to 64 characters', async () => {
    const ctx = await createRuntime()
    const names = ['a', 'A-b_9', 'x'.repeat(64), '0lead', '-dash', '__init__', '__proto__', 'constructor']
    for (const name of names) ctx.tools.register(echoTool(name))
    for (const name of names) {
      const result = await ctx.tools.execute(call(name, { text: name }))
      expect(result.isError === false && result.value).toBe(name)
    }
  })

  it('a long, hostile requested name is answered without suggestions or stalls', async () => {
    expect(closestNames('a'.repeat(1_000_000), ['a', 'aa'])).toEqual([])
  })
})

describe('UNKNOWN_TOOL suggestions', () => {
  async function messageOf(promise: Promise<{ isError: boolean }>): Promise<string> {
    const result = (await promise) as { isError: true; error: { message: string; info?: { code: string } } }
    expect(result.isError).toBe(true)
    expect(result.error.info?.code).toBe('UNKNOWN_TOOL')
    return result.error.message
  }

  it('names the closest visible tools', async () => {
    const ctx = await createRuntime()
    for (const name of ['read_file', 'write_file', 'grep', 'bash']) ctx.tools.register(echoTool(name))
    expect(await messageOf(ctx.tools.execute(call('read_fil')))).toBe(
      'unknown tool: read_fil — did you mean `read_file`?',
    )
    expect(await messageOf(ctx.tools.execute(call('Read_File')))).toBe(
      'unknown tool: Read_File — did you mean `read_file`?',
    )
    expect(await messageOf(ctx.tools.execute(call('rgep')))).toBe('unknown tool: rgep — did you mean `grep`?')
    expect(await messageOf(ctx.tools.execute(call('file')))).toBe(
      'unknown tool: file — did you mean `read_file` or `write_file`?',
    )
    expect(await messageOf(ctx.tools.execute(call('completely_else')))).toBe('unknown tool: completely_else')
  })

  it('never suggests names the calling agent cannot see', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('read_file'))
    ctx.tools.register(echoTool('read_secret'))
    const masked = createScope(ctx, 'masked')
    masked.ctx.tools.restrict({ deny: ['read_secret'] })
    const other = createScope(ctx, 'other')
    other.ctx.tools.register(echoTool('read_private'))
    const hidden = await messageOf(ctx.tools.execute(call('read_secre', {}, { agent: 'masked' })))
    expect(hidden).not.toContain('read_secret')
    const local = await messageOf(ctx.tools.execute(call('read_privat', {}, { agent: 'masked' })))
    expect(local).toBe('unknown tool: read_privat')
    // the owner of the local tool and the global caller see their own names
    expect(await messageOf(ctx.tools.execute(call('read_privat', {}, { agent: 'other' })))).toContain(
      '`read_private`',
    )
    expect(await messageOf(ctx.tools.execute(call('read_secre')))).toContain('`read_secret`')
    expect(await messageOf(ctx.tools.execute(call('read_privat')))).not.toContain('read_private')
  })

  it('keeps the code-only route-back message exactly', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    ctx.tools.register(
      defineTool({
        name: 'grep',
        description: '',
        parameters: {},
        output: { schema: { type: 'null' }, render: () => [] },
        execute: () => null,
      }),
    )
    expect(await messageOf(ctx.tools.execute(call('grep')))).toBe(
      'only `run_code` is callable directly — call `grep` from inside a `run_code` program instead',
    )
  })
})
