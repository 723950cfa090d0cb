import { defineTool } from '@dsh/tools-core'
import { generateText, stepCountIs } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { AiSdkToolError, aiSdkToolApproval, aiSdkTools } from '../src/index'
import { type App, PIXEL, startApp } from './fixtures/app'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: App | undefined
afterEach(async () => {
  await app?.ctx.fiber.dispose()
  app = undefined
})

describe('generateText with aiSdkTools', () => {
  it('runs a multi-step loop with every call through the pipeline', async () => {
    app = await startApp()
    const { ctx } = app
    const model = scriptedModel([
      { calls: [{ id: 'c1', name: 'add', input: { a: 1, b: 2 } }] },
      { calls: [{ id: 'c2', name: 'add', input: { a: 3, b: 4 } }], text: 'and again' },
      { text: 'the sums are 3 and 7' },
    ])
    const result = await generateText({
      model,
      prompt: 'add things',
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
      stopWhen: stepCountIs(5),
    })
    expect(result.text).toBe('the sums are 3 and 7')
    expect(result.steps).toHaveLength(3)
    expect(app.bodies.get('add')).toBe(2)
    expect(app.results).toEqual(['add:ok', 'add:ok'])
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      status: 'done',
      value: 3,
      content: [{ type: 'text', text: '3' }],
    })
    // What the model got back is our rendered content (toModelOutput).
    expect(toolResultsSent(model).get('c2')).toEqual({ type: 'text', value: '7' })
    // The model was offered our tools with their JSON Schema.
    const offered = model.doGenerateCalls[0]!.tools?.map((tool) => tool.name)
    expect(offered).toEqual(['add', 'deploy', 'snapshot'])
  })

  it('a policy denial is a tool error carrying our message and code; no body runs', async () => {
    app = await startApp()
    const { ctx } = app
    app.policy.set('deploy', { kind: 'deny', reason: 'deploys are frozen' })
    const model = scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }])
    const result = await generateText({
      model,
      prompt: 'deploy',
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
      stopWhen: stepCountIs(3),
    })
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error')
    expect(error).toBeDefined()
    const thrown = (error as { error: unknown }).error
    expect(thrown).toBeInstanceOf(AiSdkToolError)
    expect(thrown).toMatchObject({ code: 'DENIED', message: 'deploys are frozen' })
    expect(app.bodies.get('deploy')).toBeUndefined()
    expect(app.results).toEqual(['deploy:DENIED'])
    expect(toolResultsSent(model).get('d1')).toEqual({
      type: 'error-text',
      value: 'Error: deploys are frozen',
    })
  })

  it('invalid arguments end INVALID_ARGS from our validator, before policy', async () => {
    app = await startApp()
    const { ctx } = app
    const model = scriptedModel([{ calls: [{ id: 'x1', name: 'add', input: { a: 'one' } }] }])
    const result = await generateText({
      model,
      prompt: 'p',
      tools: aiSdkTools(ctx),
      stopWhen: stepCountIs(3),
    })
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error') as {
      error: AiSdkToolError
    }
    expect(error.error.code).toBe('INVALID_ARGS')
    expect(error.error.result.isError).toBe(true)
    expect(app.bodies.get('add')).toBeUndefined()
  })

  it('content parts with an image reach the model as a content output with a file part', async () => {
    app = await startApp()
    const { ctx } = app
    const model = scriptedModel([{ calls: [{ id: 's1', name: 'snapshot', input: {} }] }])
    await generateText({ model, prompt: 'look', tools: aiSdkTools(ctx), stopWhen: stepCountIs(3) })
    expect(toolResultsSent(model).get('s1')).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'one pixel' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PIXEL } },
      ],
    })
  })

  it('a tool named __proto__ is a member of the tool set, not its prototype', async () => {
    app = await startApp()
    app.ctx.tools.register(
      defineTool({
        name: '__proto__',
        description: 'A tool with an awkward name.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: () => 'ran',
      }),
    )
    const tools = aiSdkTools(app.ctx)
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype)
    expect(Object.keys(tools)).toContain('__proto__')
    expect(Object.getOwnPropertyDescriptor(tools, '__proto__')?.value.description).toBe(
      'A tool with an awkward name.',
    )
  })

  it('an agent scope sees its own tools and its own policy', async () => {
    app = await startApp()
    const { createScope, defineTool } = await import('@dsh/tools-core')
    const scope = createScope(app.ctx, 'agent-a')
    scope.ctx.tools.restrict({ deny: ['deploy', 'snapshot'] })
    scope.ctx.tools.register(
      defineTool({
        name: 'local',
        description: 'Agent-local.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        execute: () => 'mine',
      }),
    )
    expect(Object.keys(aiSdkTools(app.ctx, { agent: 'agent-a' })).sort()).toEqual(['add', 'local'])
    expect(Object.keys(aiSdkTools(scope.ctx)).sort()).toEqual(['add', 'local'])
    const model = scriptedModel([{ calls: [{ id: 'l1', name: 'local', input: {} }] }])
    await generateText({ model, prompt: 'p', tools: aiSdkTools(scope.ctx), stopWhen: stepCountIs(3) })
    expect(toolResultsSent(model).get('l1')).toEqual({ type: 'text', value: 'mine' })
  })
})
