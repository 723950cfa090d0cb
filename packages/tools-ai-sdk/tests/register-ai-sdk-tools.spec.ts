import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, type ToolProgressUpdate } from '@dsh/tools-core'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { aiSdkTools, registerAiSdkTools } from '../src/index'
import { scriptedModel, toolResultsSent } from './fixtures/scripted-model'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start() {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(ToolRuntime)
  return ctx
}

const call = (ctx: Context, name: string, args: unknown) =>
  ctx.tools.execute({ callId: `c-${name}`, name, arguments: args, signal: new AbortController().signal })

describe('registerAiSdkTools', () => {
  it('registers zod tools: zod validates, the body gets its output, the value is JSON', async () => {
    const ctx = await start()
    registerAiSdkTools(ctx, {
      greet: tool({
        description: 'Greet someone.',
        inputSchema: z.object({ name: z.string().transform((name) => name.toUpperCase()) }),
        execute: async ({ name }) => ({ greeting: `hello ${name}`, at: new Date(0) }),
      }),
    })
    expect(ctx.tools.get('greet')?.parameters).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
    })
    const result = await call(ctx, 'greet', { name: 'ada' })
    expect(result).toMatchObject({
      isError: false,
      value: { greeting: 'hello ADA', at: '1970-01-01T00:00:00.000Z' },
    })
    expect(await call(ctx, 'greet', { name: 7 })).toMatchObject({
      isError: true,
      error: { info: { code: 'INVALID_ARGS' } },
    })
  })

  it('registers jsonSchema tools, with their own validate', async () => {
    const ctx = await start()
    registerAiSdkTools(ctx, {
      echo: tool({
        description: 'Echo.',
        inputSchema: jsonSchema<{ text: string }>(
          { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          {
            validate: (value) =>
              (value as { text: string }).text === 'secret'
                ? { success: false, error: new Error('no secrets') }
                : { success: true, value: value as { text: string } },
          },
        ),
        execute: async ({ text }) => text,
      }),
    })
    expect(await call(ctx, 'echo', { text: 'hi' })).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'hi' }],
    })
    expect(await call(ctx, 'echo', { text: 'secret' })).toMatchObject({
      isError: true,
      error: { message: 'invalid arguments: $: no secrets', info: { code: 'INVALID_ARGS' } },
    })
    expect(await call(ctx, 'echo', {})).toMatchObject({ error: { info: { code: 'INVALID_ARGS' } } })
  })

  it('a streaming (async iterable) body reports each value as progress; the last is the value', async () => {
    const ctx = await start()
    registerAiSdkTools(ctx, {
      count: tool({
        description: 'Count to three.',
        inputSchema: z.object({}),
        async *execute() {
          yield 'one'
          yield 'two'
          yield 'three'
        },
      }),
    })
    const updates: ToolProgressUpdate[] = []
    ctx.on('tools/progress', (_execution, update) => {
      updates.push(update)
    })
    expect(await call(ctx, 'count', {})).toMatchObject({ isError: false, value: 'three' })
    expect(updates.map((update) => update.message)).toEqual(['one', 'two', 'three'])
  })

  it('a tool’s needsApproval becomes our ask: without an approval service it is denied', async () => {
    const ctx = await start()
    let runs = 0
    registerAiSdkTools(ctx, {
      pay: tool({
        description: 'Pay.',
        inputSchema: z.object({ cents: z.number() }),
        needsApproval: async ({ cents }) => cents > 100,
        execute: async ({ cents }) => {
          runs++
          return cents
        },
      }),
    })
    expect(await call(ctx, 'pay', { cents: 50 })).toMatchObject({ isError: false, value: 50 })
    expect(await call(ctx, 'pay', { cents: 5000 })).toMatchObject({
      isError: true,
      error: { info: { code: 'DENIED' } },
    })
    expect(runs).toBe(1)
  })

  it('refuses tools it cannot run, registering none of the set', async () => {
    const ctx = await start()
    const good = tool({ description: 'ok', inputSchema: z.object({}), execute: async () => 1 })
    const noExecute = tool({
      description: 'client side',
      inputSchema: z.object({}),
      outputSchema: z.number(),
    })
    expect(() => registerAiSdkTools(ctx, { good, noExecute })).toThrow(/`noExecute` has no `execute`/)
    expect(ctx.tools.get('good')).toBeUndefined()
    const lazy = tool({
      description: 'lazy',
      inputSchema: jsonSchema(Promise.resolve({ type: 'object' as const })),
      execute: async () => 1,
    })
    expect(() => registerAiSdkTools(ctx, { lazy })).toThrow(/resolves asynchronously/)
    // A registry refusal (a name providers reject) undoes the ones before it.
    expect(() => registerAiSdkTools(ctx, { good, 'bad name': good })).toThrow(/bad name/)
    expect(ctx.tools.get('good')).toBeUndefined()
  })

  it('the disposer removes them; agent must name the scope of ctx', async () => {
    const ctx = await start()
    const dispose = registerAiSdkTools(ctx, {
      one: tool({ description: '1', inputSchema: z.object({}), execute: async () => 1 }),
    })
    expect(ctx.tools.get('one')).toBeDefined()
    dispose()
    expect(ctx.tools.get('one')).toBeUndefined()
    const scope = createScope(ctx, 'agent-b')
    registerAiSdkTools(
      scope.ctx,
      { local: tool({ description: 'l', inputSchema: z.object({}), execute: async () => 'l' }) },
      { agent: 'agent-b' },
    )
    expect(ctx.tools.get('local', 'agent-b')).toBeDefined()
    expect(ctx.tools.get('local')).toBeUndefined()
    expect(() => registerAiSdkTools(ctx, {}, { agent: 'agent-b' })).toThrow(/not the scope of ctx/)
  })

  it('round trip: AI SDK tools in the registry, handed back to an AI SDK loop through the pipeline', async () => {
    const ctx = await start()
    registerAiSdkTools(ctx, {
      weather: tool({
        description: 'Weather.',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, celsius: 21 }),
      }),
    })
    const model = scriptedModel([{ calls: [{ id: 'w1', name: 'weather', input: { city: 'Oslo' } }] }])
    await generateText({ model, prompt: 'p', tools: aiSdkTools(ctx), stopWhen: stepCountIs(3) })
    expect(toolResultsSent(model).get('w1')).toEqual({ type: 'text', value: '{"city":"Oslo","celsius":21}' })
  })
})
