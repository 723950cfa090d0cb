import { describe, expect, it } from 'vitest'
import { createScope, type ToolExecution } from '../src/index'
import { job, OverlapProbe, registerJob } from './fixtures/batch'
import { call, createRuntime, echoTool } from './fixtures/runtime'

describe('executionMode', () => {
  it('is parallel only when isConcurrencySafe(args) returns exactly true', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('safe', { isConcurrencySafe: () => true }))
    ctx.tools.register(echoTool('truthy', { isConcurrencySafe: () => 1 as unknown as boolean }))
    ctx.tools.register(
      echoTool('throws', {
        isConcurrencySafe: () => {
          throw new Error('x')
        },
      }),
    )
    ctx.tools.register(echoTool('undeclared'))
    expect(ctx.tools.executionMode(call('safe'))).toBe('parallel')
    expect(ctx.tools.executionMode(call('safe', { text: 3 }))).toBe('exclusive') // invalid args
    expect(ctx.tools.executionMode(call('safe', { when: new Date() }))).toBe('exclusive') // lossy args
    expect(ctx.tools.executionMode(call('truthy'))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('throws'))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('undeclared'))).toBe('exclusive')
    expect(ctx.tools.executionMode(call('unknown'))).toBe('exclusive')
  })

  it('uses the definition the agent sees (hidden → exclusive)', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('safe', { isConcurrencySafe: () => true }))
    const s = createScope(ctx, 's')
    s.ctx.tools.restrict({ deny: ['safe'] })
    expect(ctx.tools.executionMode(call('safe', {}, { agent: 's' }))).toBe('exclusive')
    expect(s.ctx.tools.executionMode(call('safe'))).toBe('exclusive')
  })
})

describe('executeBatch', () => {
  it('publishes results and tools/result in model order even when later bodies finish first', async () => {
    const ctx = await createRuntime()
    const probe = new OverlapProbe()
    registerJob(ctx, probe)
    const published: number[] = []
    ctx.on('tools/result', (exec) => {
      published.push((exec.arguments as { id: number }).id)
    })
    const results = await ctx.tools.executeBatch([job(0, true, 8), job(1, true, 4), job(2, true, 0)])
    expect(results.map((r) => r.isError === false && r.value)).toEqual([0, 1, 2])
    expect(published).toEqual([0, 1, 2])
    // the later, shorter bodies really did overlap the first one
    expect(probe.overlaps.get(0)).toEqual(new Set([1, 2]))
  })

  it('never runs two exclusive bodies at once, nor an exclusive body beside a parallel one', async () => {
    const ctx = await createRuntime()
    const probe = new OverlapProbe()
    registerJob(ctx, probe)
    const inputs = [
      job(0, true, 3),
      job(1, false, 2),
      job(2, false, 1),
      job(3, true, 2),
      job(4, true, 1),
      job(5, false, 0),
    ]
    await ctx.tools.executeBatch(inputs)
    for (const id of [1, 2, 5]) expect(probe.overlaps.get(id)).toEqual(new Set())
    expect(probe.overlaps.get(3)).toEqual(new Set([4]))
    expect(probe.started).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('caps overlapping parallel bodies at maxParallel', async () => {
    const ctx = await createRuntime()
    const probe = new OverlapProbe()
    registerJob(ctx, probe)
    const inputs = Array.from({ length: 12 }, (_, i) => job(i, true, 2))
    await ctx.tools.executeBatch(inputs, { maxParallel: 3 })
    expect(probe.peak).toBe(3)
    await expect(ctx.tools.executeBatch(inputs, { maxParallel: 0 })).rejects.toThrow(RangeError)
  })

  it('runs policy phases in model order, one at a time', async () => {
    const ctx = await createRuntime()
    const probe = new OverlapProbe()
    registerJob(ctx, probe)
    const log: string[] = []
    ctx.on('tools/pre-execute', async (exec: ToolExecution, next) => {
      const id = (exec.arguments as { id: number }).id
      log.push(`policy:${id}:start`)
      await new Promise((resolve) => setImmediate(resolve))
      log.push(`policy:${id}:end`)
      return next()
    })
    await ctx.tools.executeBatch([job(0, true, 1), job(1, true, 1), job(2, true, 1)])
    expect(log).toEqual([
      'policy:0:start',
      'policy:0:end',
      'policy:1:start',
      'policy:1:end',
      'policy:2:start',
      'policy:2:end',
    ])
  })

  it('keeps additional contexts FIFO across the batch', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(
      echoTool('ctx', {
        isConcurrencySafe: () => true,
        execute: async (args, exec) => {
          await new Promise((resolve) => setTimeout(resolve, args.text === 'a' ? 5 : 0))
          exec.deferContext({ source: 'tool', text: args.text ?? '' })
          return args.text ?? ''
        },
      }),
    )
    const results = await ctx.tools.executeBatch([call('ctx', { text: 'a' }), call('ctx', { text: 'b' })])
    expect(results.flatMap((r) => r.additionalContexts?.map((c) => c.text) ?? [])).toEqual(['a', 'b'])
  })

  it('a batch signal aborts the remaining calls; failures stay in place', async () => {
    const ctx = await createRuntime()
    const probe = new OverlapProbe()
    registerJob(ctx, probe)
    const controller = new AbortController()
    ctx.tools.register(
      echoTool('abort', {
        execute: () => {
          controller.abort()
          return 'ok'
        },
      }),
    )
    const results = await ctx.tools.executeBatch([call('unknown'), call('abort'), job(1, false, 0)], {
      signal: controller.signal,
    })
    expect(results.map((r) => (r.isError ? r.error.info?.code : 'ok'))).toEqual([
      'UNKNOWN_TOOL',
      'ABORTED',
      'ABORTED_BEFORE_DISPATCH',
    ])
    expect(probe.started).toEqual([])
  })

  it('a call aborted while it waits at a barrier or for a slot runs no policy (ABORTED_BEFORE_DISPATCH)', async () => {
    for (const [laterParallel, maxParallel] of [
      [false, 10], // waits at the exclusive barrier
      [true, 1], // waits for a free slot
    ] as const) {
      const ctx = await createRuntime()
      const controller = new AbortController()
      const policy: string[] = []
      ctx.on('tools/pre-execute', (exec, next) => {
        policy.push(exec.callId)
        return next()
      })
      let bodies = 0
      ctx.tools.register(
        echoTool('aborter', {
          isConcurrencySafe: () => true,
          execute: async () => {
            await new Promise((resolve) => setImmediate(resolve))
            controller.abort()
            return 'first'
          },
        }),
      )
      ctx.tools.register(
        echoTool('later', {
          isConcurrencySafe: () => laterParallel,
          execute: () => {
            bodies++
            return 'second'
          },
        }),
      )
      const results = await ctx.tools.executeBatch(
        [call('aborter', {}, { callId: 'first' }), call('later', {}, { callId: 'second' })],
        { signal: controller.signal, maxParallel },
      )
      expect(results.map((r) => (r.isError ? r.error.info?.code : 'ok'))).toEqual([
        'ABORTED',
        'ABORTED_BEFORE_DISPATCH',
      ])
      expect(policy).toEqual(['first'])
      expect(bodies).toBe(0)
    }
  })

  it('uses the calling scope for inputs without an agent', async () => {
    const ctx = await createRuntime()
    const s = createScope(ctx, 's')
    s.ctx.tools.register(echoTool('local'))
    const [result] = await s.ctx.tools.executeBatch([call('local')])
    expect(result!.isError).toBe(false)
  })
})
