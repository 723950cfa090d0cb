// Code Mode end to end with real worker threads: the AI SDK loop sees only `run_code`, the
// program's sub-calls run through the full pipeline — AI SDK tools registered with zod included.
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type AiSdkToolError, aiSdkToolApproval, aiSdkTools, registerAiSdkTools } from '../src/index'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function startCodeMode() {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime, {})
  await ctx.plugin(CodeMode, {})
  ctx.tools.register(
    defineTool({
      name: 'add',
      description: 'Add two numbers.',
      parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
      output: { schema: { type: 'number' }, render: (_args, sum) => [{ type: 'text', text: String(sum) }] },
      execute: ({ a, b }) => a + b,
    }),
  )
  return ctx
}

const runCode = (id: string, code: string) => ({
  calls: [{ id, name: 'run_code', input: { code, description: 'compute' } }],
})

describe('Code Mode through the AI SDK', () => {
  it('offers only run_code and runs the program’s sub-calls through the pipeline', async () => {
    const ctx = await startCodeMode()
    const tools = aiSdkTools(ctx)
    expect(Object.keys(tools)).toEqual(['run_code'])
    const seen: string[] = []
    ctx.on('tools/result', (execution, result) => {
      seen.push(`${execution.name}:${result.isError ? result.error.info?.code : 'ok'}`)
    })
    const model = scriptedModel([
      runCode('r1', 'const a = await tools.add({ a: 1, b: 2 })\nreturn await tools.add({ a, b: 10 })'),
      { text: '13' },
    ])
    const result = await generateText({
      model,
      prompt: 'compute',
      tools,
      toolApproval: aiSdkToolApproval(ctx),
      stopWhen: stepCountIs(3),
    })
    expect(result.text).toBe('13')
    expect(toolResultsSent(model).get('r1')).toEqual({ type: 'text', value: '13' })
    expect(seen).toEqual(['add:ok', 'add:ok', 'run_code:ok'])
  })

  it('a run_code the policy asks about is the AI SDK approval request; approved, the program runs once', async () => {
    const ctx = await startCodeMode()
    let programs = 0
    ctx.on('tools/pre-execute', async (execution, next) =>
      execution.name === 'run_code' ? { kind: 'ask', reason: 'programs need a human' } : next(),
    )
    ctx.on('tools/result', (execution) => {
      if (execution.name === 'run_code') programs++
    })
    const prompt: ModelMessage[] = [{ role: 'user', content: 'compute' }]
    const first = await generateText({
      model: scriptedModel([runCode('r1', 'return await tools.add({ a: 20, b: 22 })')]),
      messages: prompt,
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
    })
    const request = first.content.find((part) => part.type === 'tool-approval-request')
    if (request?.type !== 'tool-approval-request') throw new Error('expected an approval request')
    expect(request.reason).toBe('programs need a human')
    expect(programs).toBe(0)
    const model = scriptedModel([{ text: '42' }])
    await generateText({
      model,
      messages: [
        ...prompt,
        ...first.responseMessages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }],
        },
      ],
      tools: aiSdkTools(ctx),
      toolApproval: aiSdkToolApproval(ctx),
    })
    expect(toolResultsSent(model).get('r1')).toEqual({ type: 'text', value: '42' })
    expect(programs).toBe(1)
  })

  it('a failed program is a tool error whose text is our failure content', async () => {
    const ctx = await startCodeMode()
    const model = scriptedModel([runCode('r1', "console.log('before')\nthrow new Error('boom')")])
    const result = await generateText({
      model,
      prompt: 'p',
      tools: aiSdkTools(ctx),
      stopWhen: stepCountIs(3),
    })
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error') as {
      error: AiSdkToolError
    }
    expect(error.error.code).toBe('CODE_RUN_FAILED')
    const sent = toolResultsSent(model).get('r1') as { type: string; value: string }
    expect(sent.type).toBe('error-text')
    expect(sent.value).toMatch(/^Error: code run failed \(exception\): .*boom/)
    expect(sent.value).toContain('Captured output:')
    expect(sent.value).toContain('before')
  })

  it('AI SDK tools registered with zod are callable from a program, validated by zod', async () => {
    const ctx = await startCodeMode()
    let calls = 0
    registerAiSdkTools(ctx, {
      weather: tool({
        description: 'Weather in a city.',
        inputSchema: z.object({ city: z.string().refine((city) => city !== 'Atlantis', 'no such city') }),
        outputSchema: z.object({ city: z.string(), celsius: z.number() }),
        execute: async ({ city }) => {
          calls++
          return { city, celsius: 21 }
        },
      }),
    })
    const model = scriptedModel([
      runCode(
        'r1',
        `const w = await tools.weather({ city: 'Oslo' })
        let refused = ''
        try { await tools.weather({ city: 'Atlantis' }) } catch (error) { refused = String(error) }
        return { celsius: w.celsius, refused }`,
      ),
      { text: 'ok' },
    ])
    await generateText({ model, prompt: 'p', tools: aiSdkTools(ctx), stopWhen: stepCountIs(3) })
    const sent = toolResultsSent(model).get('r1') as { type: string; value: string }
    expect(sent.type).toBe('text')
    const value = JSON.parse(sent.value) as { celsius: number; refused: string }
    expect(value.celsius).toBe(21)
    // zod's own refinement (no JSON Schema can say it) refused it before the body: one body run.
    expect(value.refused).toBe('ToolCallError: invalid arguments: $.city: no such city')
    expect(calls).toBe(1)
    // The generated SDK types the tool from its zod schemas.
    const sdk = ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    expect(sdk).toContain('weather')
    expect(sdk).toMatch(/celsius: number/)
  })
})
