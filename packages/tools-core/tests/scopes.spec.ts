import { describe, expect, it } from 'vitest'
import { createScope, scopeOf, ToolRegistrationError } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

const names = (list: { name: string }[]) => list.map((t) => t.name)

describe('scopes', () => {
  it('scopeOf reads the key of a scope ctx and nothing of a plain ctx', async () => {
    const ctx = await createRuntime()
    const scope = createScope(ctx, 'agent-a')
    expect(scope.key).toBe('agent-a')
    expect(scopeOf(scope.ctx)).toBe('agent-a')
    expect(scopeOf(ctx)).toBeUndefined()
    expect(() => createScope(ctx, '')).toThrow(TypeError)
  })

  it('a scope-local tool shadows a global of the same name for that agent only', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('echo', { execute: () => 'global' }))
    const a = createScope(ctx, 'a')
    a.ctx.tools.register(echoTool('echo', { execute: () => 'local' }))
    const local = await a.ctx.tools.execute(call('echo'))
    expect(local.isError === false && local.value).toBe('local')
    const viaAgent = await ctx.tools.execute(call('echo', {}, { agent: 'a' }))
    expect(viaAgent.isError === false && viaAgent.value).toBe('local')
    const global = await ctx.tools.execute(call('echo'))
    expect(global.isError === false && global.value).toBe('global')
    expect(ctx.tools.get('echo', 'a')?.description).toBe(a.ctx.tools.get('echo')?.description)
    expect(names(ctx.tools.schemas('a'))).toEqual(['echo'])
  })

  it('shadowing across layers is never silent: each shadow is reported naming both layers', async () => {
    const ctx = await createRuntime()
    const logged: string[] = []
    ctx.logger.exporter({
      levels: { default: 3 },
      export: (message) => {
        if (message.name === 'dsh-tools' && message.type === 'warn') logged.push(String(message.args[0]))
      },
    })
    ctx.tools.register(echoTool('echo'))
    const a = createScope(ctx, 'a')
    a.ctx.tools.register(echoTool('echo'))
    a.ctx.tools.register(echoTool('mine'))
    ctx.tools.register(echoTool('mine'))
    expect(logged).toEqual([
      'tool `echo` registered in scope `a` shadows the global `echo` for that agent',
      "global tool `mine` is shadowed in scope `a` by that agent's own `mine`",
    ])
  })

  it('exec.agent is the calling scope key, absent for global calls', async () => {
    const ctx = await createRuntime()
    const seen: (string | undefined)[] = []
    ctx.tools.register(
      echoTool('who', {
        execute: (_args, exec) => {
          seen.push(exec.agent)
          return 'x'
        },
      }),
    )
    const a = createScope(ctx, 'a')
    await a.ctx.tools.execute(call('who'))
    await ctx.tools.execute(call('who'))
    expect(seen).toEqual(['a', undefined])
  })

  it('disposing a scope removes its tools, guards, masks, mode and listeners', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('g1'))
    const a = createScope(ctx, 'a')
    let heard = 0
    a.ctx.tools.register(echoTool('local'))
    a.ctx.tools.guard(() => 'no')
    a.ctx.tools.restrict({ deny: ['g1'] })
    a.ctx.tools.presentAs('both')
    a.ctx.on('tools/result', () => {
      heard++
    })
    expect(names(ctx.tools.schemas('a'))).toEqual(['local'])
    expect(ctx.tools.modeOf('a')).toBe('both')
    await ctx.tools.execute(call('g1', {}, { agent: 'a' }))
    expect(heard).toBe(1)
    await a.dispose()
    expect(names(ctx.tools.schemas('a'))).toEqual(['g1'])
    expect(ctx.tools.modeOf('a')).toBe('native')
    const after = await ctx.tools.execute(call('g1', {}, { agent: 'a' }))
    expect(after.isError).toBe(false)
    expect(heard).toBe(1)
  })

  it('scoped listeners see only their agent; global listeners see all', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const a = createScope(ctx, 'a')
    const b = createScope(ctx, 'b')
    const log: string[] = []
    ctx.on('tools/pre-execute', (exec, next) => {
      log.push(`global:${exec.agent ?? '-'}`)
      return next()
    })
    a.ctx.on('tools/pre-execute', (exec, next) => {
      log.push(`a:${exec.agent ?? '-'}`)
      return next()
    })
    b.ctx.on('tools/result', (exec) => {
      log.push(`b-result:${exec.agent ?? '-'}`)
    })
    await ctx.tools.execute(call('echo'))
    await a.ctx.tools.execute(call('echo'))
    await b.ctx.tools.execute(call('echo'))
    expect(log).toEqual(['global:-', 'global:a', 'a:a', 'global:b', 'b-result:b'])
  })

  it('a listener registered through a scope with { global: true } sees every agent', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const a = createScope(ctx, 'a')
    const seen: (string | undefined)[] = []
    a.ctx.on(
      'tools/result',
      (exec) => {
        seen.push(exec.agent)
      },
      { global: true },
    )
    await ctx.tools.execute(call('echo'))
    await ctx.tools.execute(call('echo', {}, { agent: 'b' }))
    await a.ctx.tools.execute(call('echo'))
    expect(seen).toEqual([undefined, 'b', 'a'])
  })

  it('scoped guards apply only to their agent', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const a = createScope(ctx, 'a')
    a.ctx.tools.guard(() => 'agent a may not')
    const denied = await a.ctx.tools.execute(call('echo'))
    expect(denied.isError && denied.error).toEqual({
      message: 'agent a may not',
      info: { name: 'DeniedError', code: 'DENIED' },
    })
    expect((await ctx.tools.execute(call('echo'))).isError).toBe(false)
    expect((await ctx.tools.execute(call('echo', {}, { agent: 'b' }))).isError).toBe(false)
  })

  describe('restrict', () => {
    it('a deny mask admits later unnamed globals; an allow mask excludes later names', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool('one'))
      ctx.tools.register(echoTool('two'))
      const denier = createScope(ctx, 'denier')
      const allower = createScope(ctx, 'allower')
      denier.ctx.tools.restrict({ deny: ['one'] })
      allower.ctx.tools.restrict({ allow: ['one'] })
      ctx.tools.register(echoTool('three'))
      expect(names(ctx.tools.schemas('denier'))).toEqual(['two', 'three'])
      expect(names(ctx.tools.schemas('allower'))).toEqual(['one'])
      const hidden = await denier.ctx.tools.execute(call('one'))
      expect(hidden.isError && hidden.error.info?.code).toBe('UNKNOWN_TOOL')
      expect(ctx.tools.get('one', 'denier')).toBeUndefined()
    })

    it('the filter is snapshotted at registration: mutating the list later changes nothing', async () => {
      const ctx = await createRuntime()
      for (const name of ['a', 'b']) ctx.tools.register(echoTool(name))
      const s = createScope(ctx, 's')
      const allow = ['a']
      const filter = { allow }
      s.ctx.tools.restrict(filter)
      allow.push('b')
      ;(filter as { allow: string[] }).allow = ['b']
      expect(names(s.ctx.tools.schemas())).toEqual(['a'])
    })

    it('masks intersect, and apply to scope-local tools too (an allow list is the whole list)', async () => {
      const ctx = await createRuntime()
      for (const name of ['a', 'b', 'c']) ctx.tools.register(echoTool(name))
      const s = createScope(ctx, 's')
      s.ctx.tools.register(echoTool('mine'))
      s.ctx.tools.restrict({ allow: ['a', 'b', 'mine'] })
      const undo = s.ctx.tools.restrict({ deny: ['b'] })
      s.ctx.tools.register(echoTool('local'))
      expect(names(s.ctx.tools.schemas())).toEqual(['a', 'mine'])
      undo()
      expect(names(s.ctx.tools.schemas())).toEqual(['a', 'b', 'mine'])
    })

    it('a denied name stays denied when the scope registers a tool of that name later', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool('bash', { execute: () => 'global' }))
      const s = createScope(ctx, 's')
      s.ctx.tools.restrict({ deny: ['bash'] })
      s.ctx.tools.register(echoTool('bash', { execute: () => 'scoped' }))
      expect(names(s.ctx.tools.schemas())).toEqual([])
      expect(s.ctx.tools.get('bash')).toBeUndefined()
      const denied = await s.ctx.tools.execute(call('bash'))
      expect(denied.isError && denied.error.info?.code).toBe('UNKNOWN_TOOL')
      const viaKey = await ctx.tools.execute(call('bash', {}, { agent: 's' }))
      expect(viaKey.isError && viaKey.error.info?.code).toBe('UNKNOWN_TOOL')
    })

    it('rejects unknown and reserved names, empty filters and plain contexts; a local name may be masked', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool('g'))
      const s = createScope(ctx, 's')
      s.ctx.tools.register(echoTool('mine'))
      expect(() => s.ctx.tools.restrict({ deny: ['nope'] })).toThrow(ToolRegistrationError)
      s.ctx.tools.restrict({ deny: ['mine'] })
      expect(names(s.ctx.tools.schemas())).toEqual(['g'])
      expect(() => s.ctx.tools.restrict({ allow: ['run_code'] })).toThrow(/run_code/)
      expect(() => s.ctx.tools.restrict({ allow: [] })).toThrow(/non-empty/)
      expect(() => s.ctx.tools.restrict({ allow: ['g'], deny: ['g'] } as never)).toThrow(/exactly one/)
      expect(() => ctx.tools.restrict({ deny: ['g'] })).toThrow(/agent scope/)
    })
  })

  describe('presentAs', () => {
    it('shadows the config mode for that agent only; one per scope; throws from a plain ctx', async () => {
      const ctx = await createRuntime({ mode: 'native' })
      const s = createScope(ctx, 's')
      const undo = s.ctx.tools.presentAs('code')
      expect(ctx.tools.modeOf('s')).toBe('code')
      expect(s.ctx.tools.modeOf()).toBe('code')
      expect(ctx.tools.modeOf()).toBe('native')
      expect(() => s.ctx.tools.presentAs('both')).toThrow(/already/)
      expect(() => ctx.tools.presentAs('code')).toThrow(/agent scope/)
      expect(() => s.ctx.tools.presentAs('fancy' as never)).toThrow()
      undo()
      expect(ctx.tools.modeOf('s')).toBe('native')
      s.ctx.tools.presentAs('both')
      expect(ctx.tools.modeOf('s')).toBe('both')
    })
  })
})
