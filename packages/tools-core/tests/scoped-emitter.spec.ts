import { Context } from '@deepseek-ai/cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createScope, createScopedEmitter } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

declare module '@deepseek-ai/cordis' {
  interface Events {
    'test/observed'(payload: string): unknown
    'test/pair'(first: number, second: number): void
  }
}

let unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeEach(() => {
  unhandled = []
  process.on('unhandledRejection', onUnhandled)
})
afterEach(() => {
  process.off('unhandledRejection', onUnhandled)
})

/** Let rejection handlers and unhandled-rejection detection run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('createScopedEmitter: who hears what', () => {
  it('a global listener hears every agent; a scoped one only its own; a global emit only global ones', () => {
    const ctx = new Context()
    const a = createScope(ctx, 'a')
    const b = createScope(ctx, 'b')
    const heard: string[] = []
    ctx.on('test/observed', (payload) => heard.push(`global:${payload}`))
    a.ctx.on('test/observed', (payload) => heard.push(`a:${payload}`))
    b.ctx.on('test/observed', (payload) => heard.push(`b:${payload}`))
    const events = createScopedEmitter(ctx)
    events.emit('test/observed', 'a', '1')
    events.emit('test/observed', 'b', '2')
    events.emit('test/observed', undefined, '3')
    events.emit('test/observed', 'c', '4')
    expect(heard).toEqual(['global:1', 'a:1', 'global:2', 'b:2', 'global:3', 'global:4'])
  })

  it('{ global: true } through a scope ctx hears every agent', () => {
    const ctx = new Context()
    const a = createScope(ctx, 'a')
    const heard: (string | undefined)[] = []
    a.ctx.on('test/observed', (payload) => heard.push(payload), { global: true })
    const events = createScopedEmitter(ctx)
    events.emit('test/observed', 'a', 'a')
    events.emit('test/observed', 'b', 'b')
    events.emit('test/observed', undefined, 'none')
    expect(heard).toEqual(['a', 'b', 'none'])
  })

  it('a plugin loaded under a scope ctx is scoped to that agent too', async () => {
    const ctx = new Context()
    const a = createScope(ctx, 'a')
    const heard: string[] = []
    await a.ctx.plugin((child: Context) => {
      child.on('test/observed', (payload) => heard.push(payload))
    })
    const events = createScopedEmitter(ctx)
    events.emit('test/observed', 'b', 'other')
    events.emit('test/observed', 'a', 'own')
    expect(heard).toEqual(['own'])
  })

  it('the emitter built from any context (plain or scoped) applies the same rule', () => {
    const ctx = new Context()
    const a = createScope(ctx, 'a')
    const heard: string[] = []
    ctx.on('test/observed', (payload) => heard.push(`global:${payload}`))
    a.ctx.on('test/observed', (payload) => heard.push(`a:${payload}`))
    createScopedEmitter(a.ctx).emit('test/observed', 'b', 'x')
    createScopedEmitter(ctx).emit('test/observed', 'b', 'y')
    expect(heard).toEqual(['global:x', 'global:y'])
  })

  it('every argument reaches the listener, in order', () => {
    const ctx = new Context()
    const got: number[][] = []
    ctx.on('test/pair', (first, second) => {
      got.push([first, second])
    })
    createScopedEmitter(ctx).emit('test/pair', undefined, 1, 2)
    expect(got).toEqual([[1, 2]])
  })
})

describe('createScopedEmitter: listening and listeners', () => {
  it('something that is not a cordis context is a clear TypeError at creation', () => {
    for (const value of [undefined, null, {}, { events: {} }, { events: { _hooks: null } }, 42]) {
      expect(() => createScopedEmitter(value as never)).toThrow(/expected a cordis Context/)
    }
  })

  it('listening() is true for a listener of any scope and false once it is gone', () => {
    const ctx = new Context()
    const events = createScopedEmitter(ctx)
    expect(events.listening('test/observed')).toBe(false)
    const a = createScope(ctx, 'a')
    const off = a.ctx.on('test/observed', () => {})
    expect(events.listening('test/observed')).toBe(true)
    off()
    expect(events.listening('test/observed')).toBe(false)
  })

  it('listeners() is a snapshot in dispatch order (prepend first), empty and frozen when none', () => {
    const ctx = new Context()
    const a = createScope(ctx, 'a')
    const events = createScopedEmitter(ctx)
    const none = events.listeners('test/observed', 'a')
    expect(none).toEqual([])
    expect(Object.isFrozen(none)).toBe(true)
    const order: string[] = []
    ctx.on('test/observed', () => order.push('second'))
    a.ctx.on('test/observed', () => order.push('first'), { prepend: true })
    createScope(ctx, 'b').ctx.on('test/observed', () => order.push('b'))
    const seen = events.listeners('test/observed', 'a')
    expect(seen).toHaveLength(2)
    ctx.on('test/observed', () => order.push('late'))
    for (const listener of seen) listener('x')
    expect(order).toEqual(['first', 'second'])
  })

  it('names inherited by a plain object (constructor, __proto__, toString) are nobody listening', () => {
    const ctx = new Context()
    const events = createScopedEmitter(ctx)
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const event = name as 'test/observed'
      expect(events.listening(event)).toBe(false)
      expect(events.listeners(event, 'a')).toEqual([])
      expect(() => events.emit(event, 'a', 'x')).not.toThrow()
    }
  })
})

describe('createScopedEmitter: listeners cannot disturb the emitter', () => {
  it('a throwing listener is reported and the later ones still run', () => {
    const ctx = new Context()
    const errors: [string, unknown][] = []
    const events = createScopedEmitter(ctx, {
      onListenerError: (event, error) => errors.push([event, error]),
    })
    const heard: string[] = []
    const boom = new Error('boom')
    ctx.on('test/observed', () => {
      throw boom
    })
    ctx.on('test/observed', (payload) => heard.push(payload))
    expect(() => events.emit('test/observed', undefined, 'x')).not.toThrow()
    expect(heard).toEqual(['x'])
    expect(errors).toEqual([['test/observed', boom]])
  })

  it('an async listener that rejects is reported, never an unhandled rejection', async () => {
    const ctx = new Context()
    const errors: unknown[] = []
    const events = createScopedEmitter(ctx, { onListenerError: (_event, error) => errors.push(error) })
    const quiet = createScopedEmitter(ctx)
    const heard: string[] = []
    ctx.on('test/observed', async () => {
      throw new Error('late')
    })
    ctx.on('test/observed', (payload) => heard.push(payload))
    events.emit('test/observed', undefined, 'x')
    quiet.emit('test/observed', undefined, 'y')
    await settle()
    expect(heard).toEqual(['x', 'y'])
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toBe('late')
    expect(unhandled).toEqual([])
  })

  it('hostile return values and a throwing onListenerError never escape', async () => {
    const ctx = new Context()
    const events = createScopedEmitter(ctx, {
      onListenerError: () => {
        throw new Error('reporter broke')
      },
    })
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    const withThen = (descriptor: PropertyDescriptor) => Object.defineProperty({}, 'then', descriptor)
    const returns: unknown[] = [
      withThen({
        get() {
          throw new Error('getter')
        },
      }),
      withThen({
        value() {
          throw new Error('then')
        },
      }),
      revoked.proxy,
      Promise.reject(new Error('rejected')),
      withThen({ value: 42 }),
    ]
    let reached = 0
    for (const value of returns) ctx.on('test/observed', () => value)
    ctx.on('test/observed', () => {
      reached++
    })
    expect(() => events.emit('test/observed', undefined, 'x')).not.toThrow()
    await settle()
    expect(reached).toBe(1)
    expect(unhandled).toEqual([])
  })

  it('a listener that re-emits without end stops at the stack limit, never throwing into the emitter', () => {
    const ctx = new Context()
    const errors: unknown[] = []
    const events = createScopedEmitter(ctx, { onListenerError: (_event, error) => errors.push(error) })
    let depth = 0
    ctx.on('test/observed', (payload) => {
      depth++
      events.emit('test/observed', undefined, payload)
    })
    expect(() => events.emit('test/observed', undefined, 'x')).not.toThrow()
    expect(depth).toBeGreaterThan(100)
    // At the stack limit even the report may overflow; whatever is reported is the overflow.
    expect(errors.every((error) => error instanceof RangeError)).toBe(true)
  })
})

describe('createScopedEmitter: listeners added, removed and disposed', () => {
  it('a listener removing itself or a later one while emitting does not skip the others', () => {
    const ctx = new Context()
    const heard: string[] = []
    const offSelf = ctx.on('test/observed', () => {
      heard.push('self')
      offSelf()
    })
    ctx.on('test/observed', () => {
      heard.push('next')
      offLater()
    })
    const offLater = ctx.on('test/observed', () => heard.push('later'))
    ctx.on('test/observed', () => heard.push('last'))
    const events = createScopedEmitter(ctx)
    events.emit('test/observed', undefined, '1')
    // Like cordis' own emit, one emit delivers to the listeners registered when it began.
    expect(heard).toEqual(['self', 'next', 'later', 'last'])
    heard.length = 0
    events.emit('test/observed', undefined, '2')
    expect(heard).toEqual(['next', 'last'])
  })

  it('a listener added while emitting hears the next emit, not the current one', () => {
    const ctx = new Context()
    const heard: string[] = []
    let added = false
    ctx.on('test/observed', () => {
      if (added) return
      added = true
      ctx.on('test/observed', (later) => heard.push(`added:${later}`))
    })
    ctx.on('test/observed', (payload) => heard.push(`old:${payload}`))
    const events = createScopedEmitter(ctx)
    events.emit('test/observed', undefined, '1')
    events.emit('test/observed', undefined, '2')
    expect(heard).toEqual(['old:1', 'old:2', 'added:2'])
  })

  it("disposing the listener's fiber (a scope, a plugin) removes it", async () => {
    const ctx = new Context()
    const events = createScopedEmitter(ctx)
    const heard: string[] = []
    const a = createScope(ctx, 'a')
    a.ctx.on('test/observed', (payload) => heard.push(`a:${payload}`))
    const fiber = ctx.plugin((child: Context) => {
      child.on('test/observed', (payload) => heard.push(`plugin:${payload}`))
    })
    await fiber
    events.emit('test/observed', 'a', '1')
    await a.dispose()
    events.emit('test/observed', 'a', '2')
    await fiber.dispose()
    events.emit('test/observed', 'a', '3')
    expect(heard).toEqual(['a:1', 'plugin:1', 'plugin:2'])
    expect(events.listening('test/observed')).toBe(false)
  })
})

describe('createScopedEmitter: the runtime applies the same rule', () => {
  it('for every agent, the runtime reaches exactly the listeners the emitter lists', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('echo'))
    const scopes = ['a', 'b'].map((key) => createScope(ctx, key))
    const heard: string[] = []
    const listen = (on: Context, label: string, global = false) =>
      on.on('tools/result', (exec) => heard.push(`${label}@${exec.agent ?? '-'}`), { global })
    listen(ctx, 'plain')
    listen(scopes[0]!.ctx, 'a')
    listen(scopes[1]!.ctx, 'b')
    listen(scopes[1]!.ctx, 'b-global', true)
    const events = createScopedEmitter(ctx)
    for (const agent of ['a', 'b', 'c', undefined]) {
      heard.length = 0
      await ctx.tools.execute(call('echo', {}, agent === undefined ? {} : { agent }))
      const viaRuntime = [...heard]
      heard.length = 0
      const exec = { agent } as never
      for (const listener of events.listeners('tools/result', agent)) listener(exec, {} as never)
      expect(viaRuntime).toEqual(heard)
      expect(viaRuntime.length).toBeGreaterThan(0)
    }
  })
})
