// Using the runtime after a disposal, from a user's view: a tool gone with its plugin or scope
// says why when called by name (not a bare "unknown tool" for a name the caller saw registered),
// and registering through a held ctx.tools of a disposed plugin throws instead of succeeding.
import { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import ToolRuntime, { createScope, RuntimeDisposedError, type ToolRuntime as Tools } from '../src/index'
import { call, echoTool } from './fixtures/runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start() {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(ToolRuntime)
  return ctx
}

const messageOf = (result: { isError: boolean; error?: { message: string } }) =>
  result.isError ? result.error?.message : undefined

describe('a tool gone with its owner', () => {
  it('its plugin disposed: a call by name is UNKNOWN_TOOL naming the disposed plugin', async () => {
    const ctx = await start()
    const plugin = await ctx.plugin({
      name: 'weather-plugin',
      inject: ['tools'],
      apply: (child: Context) => {
        child.tools.register(echoTool('get_weather'))
      },
    })
    await plugin.dispose()
    const result = await ctx.tools.execute(call('get_weather', { text: 'x' }))
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(messageOf(result)).toBe(
      'unknown tool: get_weather (it was unregistered: plugin `weather-plugin` was disposed)',
    )
  })

  it('its agent scope disposed: a call for that agent names the scope', async () => {
    const ctx = await start()
    const scope = createScope(ctx, 'reader')
    scope.ctx.tools.register(echoTool('local'))
    await scope.dispose()
    const result = await ctx.tools.execute(call('local', { text: 'x' }, { agent: 'reader' }))
    expect(messageOf(result)).toBe(
      'unknown tool: local (it was unregistered: agent scope `reader` was disposed)',
    )
  })

  it('removed on purpose, or registered again: no stale reason', async () => {
    const ctx = await start()
    const remove = ctx.tools.register(echoTool('a'))
    remove()
    expect(messageOf(await ctx.tools.execute(call('a', { text: 'x' })))).toBe('unknown tool: a')
    const plugin = await ctx.plugin({
      name: 'p',
      inject: ['tools'],
      apply: (child: Context) => {
        child.tools.register(echoTool('b'))
      },
    })
    await plugin.dispose()
    ctx.tools.register(echoTool('b'))
    expect((await ctx.tools.execute(call('b', { text: 'x' }))).isError).toBe(false)
  })

  it('a global the agent may not see is not revealed by the reason', async () => {
    const ctx = await start()
    const plugin = await ctx.plugin({
      name: 'p',
      inject: ['tools'],
      apply: (child: Context) => {
        child.tools.register(echoTool('secret'))
      },
    })
    const scope = createScope(ctx, 'masked')
    scope.ctx.tools.restrict({ deny: ['secret'] })
    await plugin.dispose()
    expect(messageOf(await ctx.tools.execute(call('secret', { text: 'x' }, { agent: 'masked' })))).toBe(
      'unknown tool: secret',
    )
  })

  it('remembers a bounded number of names (the oldest are forgotten)', async () => {
    const ctx = await start()
    const plugin = await ctx.plugin({
      name: 'many',
      inject: ['tools'],
      apply: (child: Context) => {
        for (let i = 0; i < 300; i++) child.tools.register(echoTool(`t${i}`))
      },
    })
    await plugin.dispose()
    let remembered = 0
    for (let i = 0; i < 300; i++) {
      const message = messageOf(await ctx.tools.execute(call(`t${i}`, { text: 'x' })))
      if (message?.endsWith('(it was unregistered: plugin `many` was disposed)')) remembered++
      else expect(message).toBe(`unknown tool: t${i}`)
    }
    expect(remembered).toBe(256)
  })
})

describe('registering after a disposal', () => {
  it('through a held ctx.tools of a disposed plugin: register throws RUNTIME_DISPOSED, nothing is added', async () => {
    const ctx = await start()
    let held: Tools | undefined
    const plugin = await ctx.plugin({
      name: 'p',
      inject: ['tools'],
      apply: (child: Context) => {
        held = child.tools
      },
    })
    await plugin.dispose()
    expect(() => held!.register(echoTool('late'))).toThrow(RuntimeDisposedError)
    expect(() => held!.register(echoTool('late'))).toThrow(/was disposed/)
    expect(ctx.tools.get('late')).toBeUndefined()
  })
})
