import { describe, expect, it } from 'vitest'
import {
  createScope,
  MAX_PROGRESS_MESSAGE_LENGTH,
  type ToolExecution,
  type ToolProgressUpdate,
  type ToolRunContext,
} from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

type Seen = [event: string, callId: string, detail?: unknown]

/** Record progress and result events of every call, in arrival order. */
function record(ctx: Awaited<ReturnType<typeof createRuntime>>): Seen[] {
  const seen: Seen[] = []
  ctx.on('tools/progress', (execution: ToolExecution, update: ToolProgressUpdate) => {
    seen.push(['progress', execution.callId, update])
  })
  ctx.on('tools/result', (execution) => {
    seen.push(['result', execution.callId])
  })
  return seen
}

/** A tool whose body reports `steps` progress updates, awaiting a microtask between each. */
function stepping(name: string, steps: number, extra: { isConcurrencySafe?: () => boolean } = {}) {
  return echoTool(name, {
    ...extra,
    async execute(_args, exec) {
      for (let i = 1; i <= steps; i++) {
        exec.progress({ progress: i, total: steps, message: `${name} ${i}` })
        await Promise.resolve()
      }
      return 'done'
    },
  })
}

describe('exec.progress', () => {
  it('progress events arrive in emission order, all before the call’s tools/result', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    ctx.tools.register(stepping('steps', 3))
    const input = call('steps')
    const result = await ctx.tools.execute(input)
    expect(result.isError).toBe(false)
    expect(seen).toEqual([
      ['progress', input.callId, { progress: 1, total: 3, message: 'steps 1' }],
      ['progress', input.callId, { progress: 2, total: 3, message: 'steps 2' }],
      ['progress', input.callId, { progress: 3, total: 3, message: 'steps 3' }],
      ['result', input.callId],
    ])
  })

  it('a synchronous body’s progress also precedes its result', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    ctx.tools.register(
      echoTool('sync', {
        execute(_args, exec) {
          exec.progress({ message: 'half' })
          return 'x'
        },
      }),
    )
    const input = call('sync')
    await ctx.tools.execute(input)
    expect(seen).toEqual([
      ['progress', input.callId, { message: 'half' }],
      ['result', input.callId],
    ])
  })

  it('in executeBatch each call’s progress precedes its own result, per-call order kept', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    ctx.tools.register(stepping('a', 3, { isConcurrencySafe: () => true }))
    ctx.tools.register(stepping('b', 2, { isConcurrencySafe: () => true }))
    ctx.tools.register(stepping('c', 2))
    const inputs = [call('a'), call('b'), call('c')]
    const results = await ctx.tools.executeBatch(inputs)
    expect(results.every((r) => !r.isError)).toBe(true)
    for (const input of inputs) {
      const own = seen.filter(([, id]) => id === input.callId)
      const kinds = own.map(([kind]) => kind)
      expect(kinds.at(-1)).toBe('result')
      expect(kinds.slice(0, -1).every((k) => k === 'progress')).toBe(true)
      const steps = own.slice(0, -1).map(([, , update]) => (update as ToolProgressUpdate).progress)
      expect(steps).toEqual(steps.map((_, i) => i + 1))
      // every progress of this call comes before its result in the global order
      const resultAt = seen.findIndex(([kind, id]) => kind === 'result' && id === input.callId)
      expect(seen.findLastIndex(([kind, id]) => kind === 'progress' && id === input.callId)).toBeLessThan(
        resultAt,
      )
    }
    // the two parallel bodies overlapped: their progress interleaves
    const ab = seen
      .filter(([kind, id]) => kind === 'progress' && id !== inputs[2]!.callId)
      .map(([, id]) => id)
    expect(ab.slice(0, 2)).toEqual([inputs[0]!.callId, inputs[1]!.callId])
  })

  it('scoped listeners see only their agent’s progress; global listeners see all', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(stepping('steps', 1))
    const a = createScope(ctx, 'a')
    const b = createScope(ctx, 'b')
    const seenA: (string | undefined)[] = []
    const seenB: (string | undefined)[] = []
    const seenGlobal: (string | undefined)[] = []
    a.ctx.on('tools/progress', (execution) => {
      seenA.push(execution.agent)
    })
    b.ctx.on('tools/progress', (execution) => {
      seenB.push(execution.agent)
    })
    ctx.on('tools/progress', (execution) => {
      seenGlobal.push(execution.agent)
    })
    await a.ctx.tools.execute(call('steps'))
    await ctx.tools.execute(call('steps', {}, { agent: 'b' }))
    await ctx.tools.execute(call('steps'))
    expect(seenA).toEqual(['a'])
    expect(seenB).toEqual(['b'])
    expect(seenGlobal).toEqual(['a', 'b', undefined])
  })

  it('is a no-op once the body settled, also for a kept reference', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    let kept: ToolRunContext | undefined
    ctx.tools.register(
      echoTool('leaky', {
        async execute(_args, exec) {
          kept = exec
          return 'x'
        },
      }),
    )
    await ctx.tools.execute(call('leaky'))
    const before = seen.length
    expect(() => kept!.progress({ message: 'late' })).not.toThrow()
    expect(seen.length).toBe(before)
  })

  it('a progress fired after a rejecting body is dropped too', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    let kept: ToolRunContext | undefined
    ctx.tools.register(
      echoTool('fails', {
        async execute(_args, exec) {
          kept = exec
          exec.progress({ progress: 1 })
          throw new Error('boom')
        },
      }),
    )
    const result = await ctx.tools.execute(call('fails'))
    expect(result.isError).toBe(true)
    kept!.progress({ progress: 2 })
    expect(seen.map(([kind, , update]) => [kind, update])).toEqual([
      ['progress', { progress: 1 }],
      ['result', undefined],
    ])
  })

  it('hostile updates never throw into the body: invalid fields dropped, messages capped', async () => {
    const ctx = await createRuntime()
    const seen = record(ctx)
    const huge = 'x'.repeat(5_000_000)
    const throwing = Object.defineProperty({ progress: 4 }, 'message', {
      enumerable: true,
      get() {
        throw new Error('getter')
      },
    })
    const thrown: unknown[] = []
    ctx.tools.register(
      echoTool('hostile', {
        execute(_args, exec) {
          const updates: unknown[] = [
            { progress: Number.NaN, total: Number.POSITIVE_INFINITY, message: 'nan' },
            { message: huge },
            throwing,
            new Proxy(
              {},
              {
                get() {
                  throw new Error('proxy')
                },
              },
            ),
            null,
            42,
            'text',
            { progress: '3', total: 10n, message: 7 },
            { progress: -1.5, total: 0 },
            { message: `${'y'.repeat(MAX_PROGRESS_MESSAGE_LENGTH - 2)}😀tail` },
          ]
          for (const update of updates) {
            try {
              exec.progress(update as ToolProgressUpdate)
            } catch (error) {
              thrown.push(error)
            }
          }
          return 'survived'
        },
      }),
    )
    const result = await ctx.tools.execute(call('hostile'))
    expect(thrown).toEqual([])
    expect(result.isError === false && result.value).toBe('survived')
    const updates = seen.filter(([kind]) => kind === 'progress').map(([, , u]) => u as ToolProgressUpdate)
    expect(updates[0]).toEqual({ message: 'nan' })
    expect(updates[1]!.message!.length).toBe(MAX_PROGRESS_MESSAGE_LENGTH)
    expect(updates[1]!.message!.endsWith('…')).toBe(true)
    expect(updates[2]).toEqual({ progress: 4 })
    expect(updates[3]).toEqual({ progress: -1.5, total: 0 })
    // the cut never leaves half a surrogate pair behind
    expect((updates[4]!.message! as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true)
    expect(updates[4]!.message!.length).toBeLessThanOrEqual(MAX_PROGRESS_MESSAGE_LENGTH)
    expect(updates).toHaveLength(5)
    for (const update of updates) expect(Object.isFrozen(update)).toBe(true)
  })

  it('a throwing or rejecting progress listener never breaks the call or later listeners', async () => {
    const ctx = await createRuntime()
    const later: number[] = []
    ctx.on('tools/progress', () => {
      throw new Error('sync listener')
    })
    ctx.on('tools/progress', () => Promise.reject(new Error('async listener')) as unknown as undefined)
    ctx.on('tools/progress', (_execution, update) => {
      later.push(update.progress!)
    })
    ctx.tools.register(stepping('steps', 2))
    const result = await ctx.tools.execute(call('steps'))
    expect(result.isError === false && result.value).toBe('done')
    expect(later).toEqual([1, 2])
  })

  it('a body blocked on a pending promise can report progress while the caller waits', async () => {
    const ctx = await createRuntime()
    const gate = deferred()
    const seen = record(ctx)
    ctx.tools.register(
      echoTool('waits', {
        async execute(_args, exec) {
          exec.progress({ message: 'waiting' })
          await gate.promise
          return 'x'
        },
      }),
    )
    const input = call('waits')
    const pending = ctx.tools.execute(input)
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual([['progress', input.callId, { message: 'waiting' }]])
    gate.resolve()
    await pending
    expect(seen.at(-1)).toEqual(['result', input.callId])
  })
})
