import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, type ToolExecutionInput, type ToolExecutionResult } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

/** Counts how often each later stage ran for a call, by call id. */
interface Counts {
  pre: number
  guard: number
  execute: number
  body: number
  post: number
  finalize: number
  result: number
}

async function probedRuntime() {
  const ctx = await createRuntime()
  const counts = new Map<string, Counts>()
  const of = (id: string) => {
    let entry = counts.get(id)
    if (entry === undefined) {
      entry = { pre: 0, guard: 0, execute: 0, body: 0, post: 0, finalize: 0, result: 0 }
      counts.set(id, entry)
    }
    return entry
  }
  const finalizeContent = (exec: { callId: string }) => {
    of(exec.callId).finalize++
    return undefined
  }
  ctx.tools.register(
    echoTool('echo', {
      execute: (args, exec) => {
        of(exec.callId).body++
        return args.text ?? 'ok'
      },
      finalizeContent,
    }),
  )
  // Arguments checked by an asynchronous Standard Schema: the prepare stage settles late.
  ctx.tools.register(
    defineTool({
      name: 'strict',
      description: 'Takes { n: number } only.',
      // an asynchronous check: the prepare stage settles a tick late
      parameters: z.object({ n: z.number() }).refine(async () => true),
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      finalizeContent,
      execute: (_args, exec) => {
        of(exec.callId).body++
        return 'ok'
      },
    }),
  )
  ctx.on('tools/pre-execute', (exec, next) => {
    of(exec.callId).pre++
    return (exec.arguments as { text?: string }).text === 'deny'
      ? Promise.resolve({ kind: 'deny', reason: 'no' })
      : next()
  })
  ctx.tools.guard((exec) => {
    of(exec.callId).guard++
    return (exec.arguments as { text?: string }).text === 'guard' ? 'guarded' : undefined
  })
  ctx.on('tools/execute', (exec, next) => {
    of(exec.callId).execute++
    return next()
  })
  ctx.on('tools/post-execute', (exec, _result, next) => {
    of(exec.callId).post++
    return next()
  })
  ctx.on('tools/result', (exec) => {
    of(exec.callId).result++
  })
  return { ctx, counts, of }
}

/** One input per stage that can settle a call, and the stages that must then be skipped. */
function cases(abortedSignal: AbortSignal): [ToolExecutionInput, string, Partial<Counts>][] {
  return [
    [call('missing'), 'UNKNOWN_TOOL', { pre: 0, guard: 0, execute: 0, body: 0, post: 0, finalize: 0 }],
    [
      call('echo', { text: 7 }),
      'INVALID_ARGS',
      { pre: 0, guard: 0, execute: 0, body: 0, post: 0, finalize: 1 },
    ],
    [
      call('strict', { n: 'x' }),
      'INVALID_ARGS',
      { pre: 0, guard: 0, execute: 0, body: 0, post: 0, finalize: 1 },
    ],
    [
      call('echo', {}, { signal: abortedSignal }),
      'ABORTED_BEFORE_DISPATCH',
      { pre: 0, execute: 0, body: 0, post: 0, finalize: 1 },
    ],
    [
      call('echo', { text: 'deny' }),
      'DENIED',
      { pre: 1, guard: 0, execute: 0, body: 0, post: 0, finalize: 1 },
    ],
    [
      call('echo', { text: 'guard' }),
      'DENIED',
      { pre: 1, guard: 1, execute: 0, body: 0, post: 0, finalize: 1 },
    ],
    [call('strict', { n: 1 }), 'ok', { pre: 1, guard: 1, execute: 1, body: 1, post: 1, finalize: 1 }],
    [call('echo', { text: 'fine' }), 'ok', { pre: 1, guard: 1, execute: 1, body: 1, post: 1, finalize: 1 }],
  ]
}

const codeOf = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')

async function check(run: (ctx: Context, inputs: ToolExecutionInput[]) => Promise<ToolExecutionResult[]>) {
  const { ctx, of } = await probedRuntime()
  const controller = new AbortController()
  controller.abort()
  const table = cases(controller.signal)
  const results = await run(
    ctx,
    table.map(([input]) => input),
  )
  table.forEach(([input, code, skipped], index) => {
    expect(codeOf(results[index]!), input.callId).toBe(code)
    const counts = of(input.callId)
    expect(counts, input.callId).toMatchObject({ ...skipped, result: 1 })
  })
}

describe('the stage list: once a stage settles a call, only publication runs', () => {
  it('execute (the stage list straight through)', async () => {
    await check((ctx, inputs) => Promise.all(inputs.map((input) => ctx.tools.execute(input))))
  })

  it('executeBatch (the same stage list, scheduled)', async () => {
    await check((ctx, inputs) => ctx.tools.executeBatch(inputs))
  })

  it('a call aborted while its asynchronous argument check ran reaches no policy', async () => {
    const { ctx, of } = await probedRuntime()
    const controller = new AbortController()
    const input = call('strict', { n: 1 }, { signal: controller.signal })
    const pending = ctx.tools.execute(input)
    controller.abort()
    const result = await pending
    expect(codeOf(result)).toBe('ABORTED_BEFORE_DISPATCH')
    expect(of(input.callId)).toMatchObject({
      pre: 0,
      guard: 0,
      execute: 0,
      body: 0,
      post: 0,
      finalize: 1,
      result: 1,
    })
  })
})
