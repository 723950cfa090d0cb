import { describe, expect, it } from 'vitest'
import { createScope, type ToolStageEvent } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

async function runtimeWithStages() {
  const ctx = await createRuntime()
  const stages: ToolStageEvent[] = []
  ctx.on('tools/stage', (_execution, event) => {
    stages.push(event)
  })
  return { ctx, stages }
}

describe('tools/stage', () => {
  it('a plain call reports start, body-start, body-end in order', async () => {
    const { ctx, stages } = await runtimeWithStages()
    ctx.tools.register(echoTool())
    await ctx.tools.execute(call('echo'))
    expect(stages).toEqual([
      { stage: 'start' },
      { stage: 'body-start' },
      { stage: 'body-end', isError: false },
    ])
  })

  it('policy decisions, approval waits and post decisions are reported where they happen', async () => {
    const { ctx, stages } = await runtimeWithStages()
    ctx.tools.register(echoTool())
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'risky' }) as const)
    ctx.on('tools/post-execute', async () => ({ kind: 'accept' }) as const)
    ctx.provide('approval', { request: async () => ({ approved: true }) })
    const result = await ctx.tools.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(stages).toEqual([
      { stage: 'start' },
      { stage: 'decision', source: 'pre-execute', decision: 'ask', reason: 'risky' },
      { stage: 'approval-start', reason: 'risky' },
      { stage: 'approval-end', approved: true },
      { stage: 'body-start' },
      { stage: 'body-end', isError: false },
      { stage: 'post-decision', decision: 'accept' },
    ])
  })

  it('a denial by the gate or by a guard is reported with its reason and no body stages', async () => {
    const { ctx, stages } = await runtimeWithStages()
    ctx.tools.register(echoTool())
    ctx.tools.register(echoTool('guarded'))
    ctx.tools.guard((execution) => (execution.name === 'guarded' ? 'not this one' : undefined))
    ctx.on('tools/pre-execute', async (execution, next) =>
      execution.name === 'echo' ? { kind: 'deny', reason: 'nope' } : next(),
    )
    await ctx.tools.execute(call('echo'))
    expect(stages.splice(0)).toEqual([
      { stage: 'start' },
      { stage: 'decision', source: 'pre-execute', decision: 'deny', reason: 'nope' },
    ])
    await ctx.tools.execute(call('guarded'))
    expect(stages).toEqual([
      { stage: 'start' },
      { stage: 'decision', source: 'pre-execute', decision: 'allow' },
      { stage: 'decision', source: 'guard', decision: 'deny', reason: 'not this one' },
    ])
  })

  it('an approval that says no, or fails, ends the wait with approved: false', async () => {
    const { ctx, stages } = await runtimeWithStages()
    ctx.tools.register(echoTool())
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask' }) as const)
    let answer: () => Promise<{ approved: boolean; reason?: string }> = async () => ({
      approved: false,
      reason: 'user said no',
    })
    ctx.provide('approval', { request: () => answer() })
    await ctx.tools.execute(call('echo'))
    expect(stages.slice(1)).toEqual([
      { stage: 'decision', source: 'pre-execute', decision: 'ask' },
      { stage: 'approval-start' },
      { stage: 'approval-end', approved: false, reason: 'user said no' },
    ])
    stages.length = 0
    answer = () => Promise.reject(new Error('ui gone'))
    await ctx.tools.execute(call('echo'))
    expect(stages.at(-1)).toEqual({
      stage: 'approval-end',
      approved: false,
      reason: 'approval request failed: ui gone',
    })
  })

  it('a failing body ends with isError, a throwing stage listener never breaks the call', async () => {
    const { ctx, stages } = await runtimeWithStages()
    ctx.on('tools/stage', () => {
      throw new Error('observer bug')
    })
    ctx.tools.register(
      echoTool('fails', {
        execute: () => {
          throw new Error('boom')
        },
      }),
    )
    const result = await ctx.tools.execute(call('fails'))
    expect(result.isError === true && result.error.info?.code).toBe('TOOL_FAILED')
    expect(stages.at(-1)).toEqual({ stage: 'body-end', isError: true })
  })

  it('scoped stage listeners see only their agent’s calls', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool())
    const a = createScope(ctx, 'a')
    const seen: (string | undefined)[] = []
    a.ctx.on('tools/stage', (execution, event) => {
      if (event.stage === 'start') seen.push(execution.agent)
    })
    await ctx.tools.execute(call('echo'))
    await a.ctx.tools.execute(call('echo'))
    await ctx.tools.execute(call('echo', {}, { agent: 'b' }))
    expect(seen).toEqual(['a'])
  })
})
