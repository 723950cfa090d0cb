import { describe, expect, it } from 'vitest'
import { defineTool } from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

/** A concurrency-safe tool whose body awaits one macrotask; it logs body starts and renders. */
function loggedTool(log: string[], active = { now: 0, peak: 0 }) {
  return defineTool({
    name: 'step',
    description: 'One step.',
    parameters: { id: { type: 'integer', required: true } },
    output: {
      schema: { type: 'integer' },
      render: (_args, value) => {
        log.push(`render:${value}`)
        return [{ type: 'text', text: String(value) }]
      },
    },
    isConcurrencySafe: () => true,
    // Idempotent: the retry test runs each body twice, which only an idempotent tool allows.
    annotations: { idempotent: true },
    async execute(args) {
      log.push(`body:${args.id}`)
      active.now++
      active.peak = Math.max(active.peak, active.now)
      await new Promise((resolve) => setImmediate(resolve))
      active.now--
      return args.id
    },
  })
}

describe('executeBatch slots', () => {
  it('a slot frees the moment a body settles: the next body starts before the last one is rendered', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(loggedTool(log))
    const results = await ctx.tools.executeBatch(
      [1, 2, 3].map((id) => call('step', { id })),
      { maxParallel: 1 },
    )
    expect(results.map((result) => !result.isError && result.value)).toEqual([1, 2, 3])
    expect(log).toEqual(['body:1', 'body:2', 'render:1', 'body:3', 'render:2', 'render:3'])
  })

  it('with tools/execute wrappers the slot is held until the dispatch ends, so a retry never overlaps', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    const active = { now: 0, peak: 0 }
    ctx.tools.register(loggedTool(log, active))
    ctx.on('tools/execute', async (_exec, next) => {
      await next() // a wrapper that always runs the body twice
      return next()
    })
    await ctx.tools.executeBatch(
      [1, 2, 3].map((id) => call('step', { id })),
      { maxParallel: 1 },
    )
    expect(active.peak).toBe(1)
    expect(log.filter((entry) => entry.startsWith('body'))).toEqual([
      'body:1',
      'body:1',
      'body:2',
      'body:2',
      'body:3',
      'body:3',
    ])
  })

  it('never more bodies at once than maxParallel, whatever the slot release point', async () => {
    const ctx = await createRuntime()
    const active = { now: 0, peak: 0 }
    ctx.tools.register(loggedTool([], active))
    for (const maxParallel of [1, 2, 5]) {
      active.peak = 0
      await ctx.tools.executeBatch(
        Array.from({ length: 20 }, (_, id) => call('step', { id })),
        { maxParallel },
      )
      expect(active.peak).toBe(maxParallel)
    }
  })
})
