// With @dsh/tool-approvals loaded (a durable approval service on a store), the AI SDK route and
// the durable route coexist: a call the AI SDK asked about and a person approved runs once
// without a ticket; a call that reaches the gate's ask without that approval suspends as
// APPROVAL_PENDING, a tool error naming its ticket — never a run.
import { Context } from '@deepseek-ai/cordis'
import ToolApprovals from '@dsh/tool-approvals'
import ToolRuntime, { defineTool, MemoryToolStore } from '@dsh/tools-core'
import { generateText, type ModelMessage, stepCountIs } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { AiSdkToolError, aiSdkToolApproval, aiSdkTools } from '../src/index'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start() {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(MemoryToolStore)
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(ToolApprovals, { signingKey: 'k'.repeat(32) })
  let runs = 0
  ctx.tools.register(
    defineTool({
      name: 'deploy',
      description: 'Deploy.',
      parameters: { service: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      execute: ({ service }) => {
        runs++
        return `deployed ${service}`
      },
    }),
  )
  ctx.on('tools/pre-execute', async (execution, next) =>
    execution.name === 'deploy' ? { kind: 'ask', reason: 'needs a human' } : next(),
  )
  return { ctx, runs: () => runs }
}

describe('with a durable approval service', () => {
  it('an AI SDK approval runs the call once and leaves no pending ticket', async () => {
    const { ctx, runs } = await start()
    const prompt: ModelMessage[] = [{ role: 'user', content: 'deploy' }]
    const first = await generateText({
      model: scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }]),
      messages: prompt,
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
    })
    const request = first.content.find((part) => part.type === 'tool-approval-request')!
    expect(request.type).toBe('tool-approval-request')
    const model = scriptedModel([{ text: 'done' }])
    await generateText({
      model,
      messages: [
        ...prompt,
        ...first.responseMessages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: (request as { approvalId: string }).approvalId,
              approved: true,
            },
          ],
        },
      ],
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
    })
    expect(runs()).toBe(1)
    expect(toolResultsSent(model).get('d1')).toEqual({ type: 'text', value: 'deployed api' })
    expect(await ctx.approvals.list({ status: 'pending' })).toEqual([])
  })

  it('a call that meets the ask without an AI SDK approval suspends: APPROVAL_PENDING with its ticket', async () => {
    const { ctx, runs } = await start()
    const result = await generateText({
      model: scriptedModel([{ calls: [{ id: 'd1', name: 'deploy', input: { service: 'api' } }] }]),
      prompt: 'deploy',
      tools: aiSdkTools(ctx),
      toolApproval: () => 'not-applicable',
      stopWhen: stepCountIs(1),
    })
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error') as {
      error: AiSdkToolError
    }
    expect(error.error).toBeInstanceOf(AiSdkToolError)
    expect(error.error.code).toBe('APPROVAL_PENDING')
    const ticket = error.error.result.pending?.ticket
    expect(typeof ticket).toBe('string')
    expect(runs()).toBe(0)
    expect((await ctx.approvals.list({ status: 'pending' })).map((view) => view.ticket)).toEqual([ticket])
  })
})
