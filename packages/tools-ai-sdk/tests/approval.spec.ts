import { generateText, type ModelMessage, stepCountIs } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkToolApproval, aiSdkTools } from '../src/index'
import { type App, startApp } from './fixtures/app'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: App | undefined
afterEach(async () => {
  await app?.ctx.fiber.dispose()
  app = undefined
})

const prompt: ModelMessage[] = [{ role: 'user', content: 'deploy the api' }]

/** Turn 1: the model calls `deploy`; the policy asks. Returns the history and the approval id. */
async function askedTurn(current: App, withToolApproval = true) {
  current.policy.set('deploy', { kind: 'ask', reason: 'deploys need a human' })
  const model = scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }])
  const result = await generateText({
    model,
    messages: prompt,
    tools: aiSdkTools(current.ctx),
    ...(withToolApproval ? { toolApproval: aiSdkToolApproval(current.ctx) } : {}),
    stopWhen: stepCountIs(5),
  })
  const request = result.content.find((part) => part.type === 'tool-approval-request')
  if (request?.type !== 'tool-approval-request') throw new Error('expected an approval request')
  return { history: [...prompt, ...result.responseMessages], request, result }
}

function answer(approvalId: string, approved: boolean, reason?: string): ModelMessage {
  return {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId, approved, ...(reason ? { reason } : {}) }],
  }
}

describe('our `ask` as the AI SDK tool-approval request', () => {
  it('asks the AI SDK way, then runs the approved call through the pipeline exactly once', async () => {
    app = await startApp()
    const { history, request, result } = await askedTurn(app)
    expect(request.reason).toBe('deploys need a human')
    expect(request.toolCall).toMatchObject({ toolName: 'deploy', input: { service: 'api' } })
    expect(result.finishReason).toBe('tool-calls')
    expect(app.bodies.get('deploy')).toBeUndefined()
    expect(app.results).toEqual([])

    const resumed = [...history, answer(request.approvalId, true)]
    const model = scriptedModel([{ text: 'deployed' }])
    const second = await generateText({
      model,
      messages: resumed,
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
      stopWhen: stepCountIs(5),
    })
    expect(second.text).toBe('deployed')
    expect(app.bodies.get('deploy')).toBe(1)
    expect(app.results).toEqual(['deploy:ok'])
    expect(toolResultsSent(model).get('d1')).toEqual({ type: 'text', value: 'deployed api' })

    // The loop goes on with the result in its history: the approval is spent, nothing reruns.
    const later = scriptedModel([{ text: 'still deployed' }])
    await generateText({
      model: later,
      messages: [...resumed, ...second.responseMessages, { role: 'user', content: 'thanks' }],
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
    })
    expect(app.bodies.get('deploy')).toBe(1)
  })

  it('a replayed approval (the same request sent again) gets the first result back; the body ran once', async () => {
    app = await startApp()
    const { history, request } = await askedTurn(app)
    const resumed = [...history, answer(request.approvalId, true)]
    for (const attempt of [1, 2]) {
      const model = scriptedModel([{ text: `attempt ${attempt}` }])
      await generateText({
        model,
        messages: resumed,
        tools: aiSdkTools(app.ctx),
        toolApproval: aiSdkToolApproval(app.ctx),
      })
      expect(toolResultsSent(model).get('d1')).toEqual({ type: 'text', value: 'deployed api' })
    }
    expect(app.bodies.get('deploy')).toBe(1)
    expect(app.results).toEqual(['deploy:ok'])
  })

  it('works through each tool’s needsApproval when toolApproval is not passed', async () => {
    app = await startApp()
    const { history, request } = await askedTurn(app, false)
    await generateText({
      model: scriptedModel([{ text: 'ok' }]),
      messages: [...history, answer(request.approvalId, true)],
      tools: aiSdkTools(app.ctx),
    })
    expect(app.bodies.get('deploy')).toBe(1)
  })

  it('a denial is the AI SDK’s execution-denied with the reviewer’s reason; nothing runs', async () => {
    app = await startApp()
    const { history, request } = await askedTurn(app)
    const model = scriptedModel([{ text: 'not deployed' }])
    await generateText({
      model,
      messages: [...history, answer(request.approvalId, false, 'not on a Friday')],
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
    })
    expect(app.bodies.get('deploy')).toBeUndefined()
    expect(toolResultsSent(model).get('d1')).toEqual({ type: 'execution-denied', reason: 'not on a Friday' })
  })

  it('a call the AI SDK runs without an approval still meets our ask: denied, no body', async () => {
    app = await startApp()
    app.policy.set('deploy', { kind: 'ask' })
    const model = scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }])
    const result = await generateText({
      model,
      prompt: 'deploy',
      tools: aiSdkTools(app.ctx),
      // The caller waves every call through on the AI SDK side: our gate still asks.
      toolApproval: () => 'not-applicable',
      stopWhen: stepCountIs(3),
    })
    expect(app.bodies.get('deploy')).toBeUndefined()
    expect(app.results).toEqual(['deploy:DENIED'])
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true)
  })

  it('an approval of one call does not admit a later call that reuses its id', async () => {
    app = await startApp()
    const { history, request } = await askedTurn(app)
    // Turn 2 runs the approved call, then the model calls deploy again under the same id.
    const model = scriptedModel([
      { calls: [{ id: 'd1', name: 'deploy', input: { service: 'db' } }] },
      { text: 'x' },
    ])
    await generateText({
      model,
      messages: [...history, answer(request.approvalId, true)],
      tools: aiSdkTools(app.ctx),
      toolApproval: () => 'not-applicable',
      stopWhen: stepCountIs(3),
    })
    expect(app.bodies.get('deploy')).toBe(1)
    expect(app.results).toEqual(['deploy:ok', 'deploy:DENIED'])
  })

  it('an allowed call is not an approval request', async () => {
    app = await startApp()
    const model = scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }])
    const result = await generateText({
      model,
      prompt: 'deploy',
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
      stopWhen: stepCountIs(3),
    })
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false)
    expect(app.bodies.get('deploy')).toBe(1)
  })
})

describe('isApprovalCheck', () => {
  it('tells the approval check from the real gate, so a side-effecting listener counts each call once', async () => {
    app = await startApp()
    const { isApprovalCheck } = await import('../src/index')
    const gates: string[] = []
    app.ctx.on('tools/pre-execute', async (execution, next) => {
      gates.push(`${execution.name}:${isApprovalCheck(execution) ? 'check' : 'gate'}`)
      return next()
    })
    await generateText({
      model: scriptedModel([{ calls: [{ id: 'a1', name: 'add', input: { a: 1, b: 1 } }] }]),
      prompt: 'p',
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
      stopWhen: stepCountIs(3),
    })
    expect(gates).toEqual(['add:check', 'add:gate'])
  })
})

describe('the approval admits exactly its own call', () => {
  it('while an approved call of one agent runs, another agent’s call with the same id and tool still meets the ask', async () => {
    app = await startApp()
    const { createScope, defineTool } = await import('@dsh/tools-core')
    const { ctx } = app
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let runs = 0
    ctx.tools.register(
      defineTool({
        name: 'slow_deploy',
        description: 'Deploy, slowly.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        async execute() {
          runs++
          await held
          return 'deployed'
        },
      }),
    )
    app.policy.set('slow_deploy', { kind: 'ask', reason: 'needs a human' })
    createScope(ctx, 'a')
    createScope(ctx, 'b')
    const prompt: ModelMessage[] = [{ role: 'user', content: 'deploy' }]
    const first = await generateText({
      model: scriptedModel([{ calls: [{ id: 'd1', name: 'slow_deploy', input: {} }] }]),
      messages: prompt,
      tools: aiSdkTools(ctx, { agent: 'a' }),
      toolApproval: aiSdkToolApproval(ctx, { agent: 'a' }),
    })
    const request = first.content.find((part) => part.type === 'tool-approval-request') as {
      approvalId: string
    }
    const approved = generateText({
      model: scriptedModel([{ text: 'done' }]),
      messages: [...prompt, ...first.responseMessages, answer(request.approvalId, true)],
      tools: aiSdkTools(ctx, { agent: 'a' }),
      toolApproval: aiSdkToolApproval(ctx, { agent: 'a' }),
    })
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    const other = ctx.tools.execute({
      callId: 'd1',
      name: 'slow_deploy',
      arguments: {},
      agent: 'b',
      signal: new AbortController().signal,
    })
    release()
    expect(await other).toMatchObject({ isError: true, error: { info: { code: 'DENIED' } } })
    await approved
    expect(runs).toBe(1)
  })
})
