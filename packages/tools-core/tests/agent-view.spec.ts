// The per-agent resolution view (src/resolution/): built once per change, not per call; kept
// consistent when the registry changes while a call is in flight or while a view is being built;
// dropped with its agent scope and bounded however many agent keys a host uses. The differential
// proof against the old walking resolution is tests/agent-view.property.spec.ts.
import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { createScope } from '../src/index'
import type { ToolRegistry } from '../src/registry'
import { MAX_AGENT_VIEWS } from '../src/resolution/agent-view-cache'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

/** The runtime's registry, read through its state symbol, to count the views it keeps. */
function registryOf(ctx: Context): ToolRegistry {
  const runtime = ctx.tools as unknown as Record<symbol, { registry: ToolRegistry }>
  const state = Object.getOwnPropertySymbols(runtime).find((s) => s.description === 'dsh-tools.runtime')
  return runtime[state!]!.registry
}

const names = (ctx: Context, agent?: string) => ctx.tools.schemas(agent).map((schema) => schema.name)

describe('per-agent resolution view', () => {
  it('resolves a call with one lookup: deferral predicates run once per change, not once per call', async () => {
    app = await createRuntime()
    for (let i = 0; i < 50; i++) app.tools.register(echoTool(`tool_${i}`))
    let evaluated = 0
    app.tools.defer((schema) => {
      evaluated++
      return schema.name.endsWith('7')
    })
    const agent = createScope(app, 'a').ctx
    expect((await agent.tools.execute(call('tool_1'))).isError).toBe(false)
    const afterFirst = evaluated
    for (let i = 0; i < 200; i++) await agent.tools.execute(call(`tool_${i % 50}`))
    expect(evaluated).toBe(afterFirst)
    // A change rebuilds the view once; the calls after it again cost no predicate runs.
    agent.tools.register(echoTool('local'))
    for (let i = 0; i < 20; i++) await agent.tools.execute(call('local'))
    expect(evaluated - afterFirst).toBe(51)
    expect((await agent.tools.execute(call('tool_7'))).isError).toBe(true)
  })

  it('a registration while a call is in flight leaves that call its tool and the next calls the new state', async () => {
    app = await createRuntime()
    const gate = deferred()
    const started = deferred()
    app.tools.register(
      echoTool('slow', {
        execute: async () => {
          started.resolve()
          await gate.promise
          return 'slow done'
        },
      }),
    )
    app.tools.register(echoTool('other'))
    const scope = createScope(app, 'a')
    const inFlight = scope.ctx.tools.execute(call('slow'))
    await started.promise
    // Change everything the view is built from while `slow` runs.
    app.tools.register(echoTool('late'))
    scope.ctx.tools.restrict({ deny: ['other'] })
    app.tools.defer(['late'])
    scope.ctx.tools.register(echoTool('slow', { execute: () => 'local slow' }))
    gate.resolve()
    const result = await inFlight
    expect(!result.isError && result.value).toBe('slow done')
    expect(names(app, 'a')).toEqual(['slow', 'tool_search'])
    const again = await scope.ctx.tools.execute(call('slow'))
    expect(!again.isError && again.value).toBe('local slow')
    const masked = await scope.ctx.tools.execute(call('other'))
    expect(masked.isError && masked.error.message).toBe('unknown tool: other')
    const hidden = await scope.ctx.tools.execute(call('late'))
    expect(hidden.isError && hidden.error.message).toMatch(/`late` is deferred/)
  })

  it('a change made while a view is being built is not lost (the half-built view is not kept)', async () => {
    app = await createRuntime()
    app.tools.register(echoTool('first'))
    const ctx = app
    let registered = false
    // A predicate runs while the view is built; this one registers a tool the first time.
    app.tools.defer(() => {
      if (!registered) {
        registered = true
        ctx.tools.register(echoTool('late'))
      }
      return false
    })
    names(app)
    expect(registered).toBe(true)
    expect(names(app)).toEqual(['first', 'late'])
    expect((await app.tools.execute(call('late'))).isError).toBe(false)
  })

  it('a tools/changed listener that reads already sees the change it is told about', async () => {
    app = await createRuntime()
    app.tools.register(echoTool('first'))
    const agent = createScope(app, 'a')
    names(app, 'a')
    const seen: string[][] = []
    app.on('tools/changed', () => {
      seen.push(names(app!, 'a'))
    })
    app.tools.register(echoTool('second'))
    agent.ctx.tools.restrict({ deny: ['first'] })
    app.tools.defer(['second'])
    expect(seen).toEqual([['first', 'second'], ['second'], ['tool_search']])
  })

  it('many short-lived agent scopes leave no views behind', async () => {
    app = await createRuntime()
    app.tools.register(echoTool('echo'))
    const registry = registryOf(app)
    for (let i = 0; i < 300; i++) {
      const scope = createScope(app, `agent-${i}`)
      // An agent that only calls changes nothing, so only its scope's disposal can drop its view.
      expect((await scope.ctx.tools.execute(call('echo'))).isError).toBe(false)
      expect(registry.viewCount).toBeGreaterThan(0)
      await scope.dispose()
    }
    expect(registry.viewCount).toBe(0)
  })

  it('an agent scope disposed forgets the tools it loaded: the same key starts deferred again', async () => {
    app = await createRuntime()
    app.tools.register(echoTool('echo'))
    app.tools.register(echoTool('rare_tool'))
    app.tools.defer(['rare_tool'])
    for (let round = 0; round < 2; round++) {
      const scope = createScope(app, 'agent')
      expect((await scope.ctx.tools.execute(call('rare_tool'))).isError).toBe(true)
      expect((await scope.ctx.tools.execute(call('tool_search', { query: 'rare_tool' }))).isError).toBe(false)
      expect((await scope.ctx.tools.execute(call('rare_tool'))).isError).toBe(false)
      await scope.dispose()
    }
  })

  it('keeps a bounded number of views however many agent keys calls name, and stays correct', async () => {
    app = await createRuntime()
    app.tools.register(echoTool('echo'))
    const registry = registryOf(app)
    const denied = createScope(app, 'denied')
    denied.ctx.tools.restrict({ deny: ['echo'] })
    for (let i = 0; i < MAX_AGENT_VIEWS * 2; i++) {
      const result = await app.tools.execute(call('echo', {}, { agent: `key-${i}` }))
      expect(result.isError).toBe(false)
      expect(registry.viewCount).toBeLessThanOrEqual(MAX_AGENT_VIEWS)
    }
    // The masked agent's view was evicted long ago; rebuilt, it still masks.
    const masked = await denied.ctx.tools.execute(call('echo'))
    expect(masked.isError && masked.error.message).toBe('unknown tool: echo')
  })
})
