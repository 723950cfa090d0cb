import { defineTool } from '@dsh/tools-core'
import { type ModelMessage, stepCountIs, streamText } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkToolApproval, aiSdkTools } from '../src/index'
import { type App, startApp } from './fixtures/app'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: App | undefined
afterEach(async () => {
  await app?.ctx.fiber.dispose()
  app = undefined
})

function registerSlowTool(current: App) {
  let release: (() => void) | undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  current.ctx.tools.register(
    defineTool({
      name: 'index_repo',
      description: 'Index a repository, reporting progress.',
      parameters: {},
      output: {
        schema: { type: 'number' },
        render: (_args, files) => [{ type: 'text', text: `${files} files` }],
      },
      async execute(_args, exec) {
        exec.progress({ message: 'scanning', progress: 1, total: 2 })
        await released
        exec.progress({ message: 'writing', progress: 2, total: 2 })
        return 42
      },
    }),
  )
  return () => release?.()
}

describe('streamText with aiSdkTools', () => {
  it('streams our progress as preliminary tool results, then the final result', async () => {
    app = await startApp()
    const release = registerSlowTool(app)
    const model = scriptedModel([
      { calls: [{ id: 'i1', name: 'index_repo', input: {} }] },
      { text: 'indexed' },
    ])
    const stream = streamText({
      model,
      prompt: 'index',
      tools: aiSdkTools(app.ctx),
      stopWhen: stepCountIs(3),
    })
    const seen: unknown[] = []
    for await (const part of stream.fullStream) {
      if (part.type !== 'tool-result') continue
      seen.push({ preliminary: part.preliminary === true, output: part.output })
      // The first report arrived while the body still runs: let it finish.
      if (seen.length === 1) release()
    }
    const done = { status: 'done', value: 42, content: [{ type: 'text', text: '42 files' }] }
    expect(seen).toEqual([
      {
        preliminary: true,
        output: { status: 'progress', progress: { message: 'scanning', progress: 1, total: 2 } },
      },
      {
        preliminary: true,
        output: { status: 'progress', progress: { message: 'writing', progress: 2, total: 2 } },
      },
      // The AI SDK streams every value an execute yields as preliminary, the last one again as final.
      { preliminary: true, output: done },
      { preliminary: false, output: done },
    ])
    expect(await stream.text).toBe('indexed')
    expect(toolResultsSent(model).get('i1')).toEqual({ type: 'text', value: '42 files' })
  })

  it('runs a multi-step loop, denials included', async () => {
    app = await startApp()
    app.policy.set('deploy', { kind: 'deny', reason: 'frozen' })
    const model = scriptedModel([
      {
        calls: [
          { id: 'a1', name: 'add', input: { a: 2, b: 2 } },
          { id: 'd1', name: 'deploy', input: { service: 'api' } },
        ],
      },
      { text: 'four, and no deploy' },
    ])
    const stream = streamText({ model, prompt: 'p', tools: aiSdkTools(app.ctx), stopWhen: stepCountIs(3) })
    expect(await stream.text).toBe('four, and no deploy')
    const sent = toolResultsSent(model)
    expect(sent.get('a1')).toEqual({ type: 'text', value: '4' })
    expect(sent.get('d1')).toEqual({ type: 'error-text', value: 'Error: frozen' })
    expect(app.results.sort()).toEqual(['add:ok', 'deploy:DENIED'])
  })

  it('an approval request answered and resumed runs the call exactly once', async () => {
    app = await startApp()
    app.policy.set('deploy', { kind: 'ask', reason: 'needs a human' })
    const prompt: ModelMessage[] = [{ role: 'user', content: 'deploy' }]
    const first = streamText({
      model: scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }]),
      messages: prompt,
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
      stopWhen: stepCountIs(3),
    })
    const requests = (await first.content).filter((part) => part.type === 'tool-approval-request')
    expect(requests).toHaveLength(1)
    expect(app.bodies.get('deploy')).toBeUndefined()
    const history: ModelMessage[] = [
      ...prompt,
      ...(await first.response).messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true }],
      },
    ]
    const model = scriptedModel([{ text: 'deployed' }])
    const second = streamText({
      model,
      messages: history,
      tools: aiSdkTools(app.ctx),
      toolApproval: aiSdkToolApproval(app.ctx),
      stopWhen: stepCountIs(3),
    })
    expect(await second.text).toBe('deployed')
    expect(app.bodies.get('deploy')).toBe(1)
    expect(toolResultsSent(model).get('d1')).toEqual({ type: 'text', value: 'deployed api' })
  })

  it('abort reaches the body through our pipeline and nothing is left running', async () => {
    app = await startApp()
    let started = 0
    let sawAbort = 0
    let running = 0
    app.ctx.tools.register(
      defineTool({
        name: 'wait_forever',
        description: 'Waits for its signal.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            started++
            running++
            exec.signal.addEventListener('abort', () => {
              sawAbort++
              running--
              reject(exec.signal.reason)
            })
          }),
      }),
    )
    const controller = new AbortController()
    const results: string[] = app.results
    const stream = streamText({
      model: scriptedModel([{ calls: [{ id: 'w1', name: 'wait_forever', input: {} }] }]),
      prompt: 'wait',
      tools: aiSdkTools(app.ctx),
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
    })
    const parts: string[] = []
    for await (const part of stream.fullStream) {
      parts.push(part.type)
      if (part.type === 'tool-call') setTimeout(() => controller.abort(), 0)
    }
    expect(parts).toContain('abort')
    expect(started).toBe(1)
    expect(sawAbort).toBe(1)
    expect(running).toBe(0)
    // The pipeline settled the call as ABORTED and published it.
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(results).toEqual(['wait_forever:ABORTED'])
  })
})
