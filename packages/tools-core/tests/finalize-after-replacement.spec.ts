import { describe, expect, it } from 'vitest'
import {
  defineTool,
  type ToolContent,
  type ToolExecution,
  type ToolExecutionResult,
  type ToolExecutionToken,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

type Ctx = Awaited<ReturnType<typeof createRuntime>>

const SECRET = 'sk-live-0123456789abcdef'

/**
 * A tool shaped like an MCP tool with an `outputSchema`: its value is structured, and its
 * `finalizeContent` shows side data the body left (the server's own content blocks), keyed by
 * the execution's token. The side data carries the secret.
 */
function sideDataTool(finalized: string[], body?: () => unknown) {
  const shown = new WeakMap<ToolExecutionToken, string>()
  return defineTool({
    name: 'reader',
    description: 'Reads a note.',
    parameters: {},
    output: {
      jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }],
    },
    execute: async (_args, exec) => {
      shown.set(exec.token, `server says: key=${SECRET}`)
      return (body?.() ?? { text: `key=${SECRET}` }) as { text: string }
    },
    finalizeContent: (exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined => {
      finalized.push(result.isError ? (result.error.info?.code ?? '?') : 'ok')
      const blocks = shown.get(exec.token)
      return blocks === undefined || result.isError ? undefined : [{ type: 'text', text: blocks }]
    },
  })
}

/** What the model sees of a result: its content parts. */
const texts = (result: ToolExecutionResult): string => JSON.stringify(result.content)

describe('finalizeContent after a replacement', () => {
  it('shows the side data of an untouched result (the tool decides its own content)', async () => {
    const ctx = await createRuntime()
    const finalized: string[] = []
    ctx.tools.register(sideDataTool(finalized))
    const result = await ctx.tools.execute(call('reader'))
    expect(finalized).toEqual(['ok'])
    expect(result.content).toEqual([{ type: 'text', text: `server says: key=${SECRET}` }])
  })

  const replacements: Record<string, { setup(ctx: Ctx): void; code?: string }> = {
    'a post-execute value replacement (redaction)': {
      setup: (ctx) =>
        ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: { text: 'key=[REDACTED]' } })),
    },
    'a post-execute content replacement': {
      setup: (ctx) =>
        ctx.on('tools/post-execute', async () => ({
          kind: 'accept',
          content: [{ type: 'text', text: 'key=[REDACTED]' }],
        })),
    },
    'a post-execute block': {
      setup: (ctx) => ctx.on('tools/post-execute', async () => ({ kind: 'block', feedback: 'has a secret' })),
      code: 'DENIED',
    },
    'a throwing post-execute listener': {
      setup: (ctx) =>
        ctx.on('tools/post-execute', () => {
          throw new Error('redactor broke')
        }),
      code: 'POST_POLICY_FAILED',
    },
    'a wrapper-authored success after the body ran': {
      setup: (ctx) =>
        ctx.on('tools/execute', async (_exec, next) => {
          await next()
          return { isError: false, value: { text: 'key=[REDACTED]' } } as never
        }),
    },
  }
  for (const [label, replacement] of Object.entries(replacements)) {
    it(`no content part derives from the body's side data after ${label}`, async () => {
      const ctx = await createRuntime()
      const finalized: string[] = []
      ctx.tools.register(sideDataTool(finalized))
      replacement.setup(ctx)
      const seen: ToolExecutionResult[] = []
      ctx.on('tools/result', (_exec, result) => {
        seen.push(result)
      })
      const result = await ctx.tools.execute(call('reader'))
      expect(finalized).toEqual([])
      expect(texts(result)).not.toContain(SECRET)
      expect(texts(seen[0]!)).not.toContain(SECRET)
      if (replacement.code === undefined) {
        expect(result.isError).toBe(false)
        expect(result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')).toContain(
          '[REDACTED]',
        )
      } else {
        expect(result.isError && result.error.info?.code).toBe(replacement.code)
      }
    })
  }

  it('a replaced value is re-rendered through output.render from the final value', async () => {
    const ctx = await createRuntime()
    const finalized: string[] = []
    ctx.tools.register(sideDataTool(finalized))
    ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: { text: 'clean' } }))
    const result = await ctx.tools.execute(call('reader'))
    expect(result.isError === false && result.value).toEqual({ text: 'clean' })
    expect(result.content).toEqual([{ type: 'text', text: '{"text":"clean"}' }])
  })

  it('the abort rule turning a success into ABORTED skips the finalizer too', async () => {
    const ctx = await createRuntime()
    const finalized: string[] = []
    const controller = new AbortController()
    ctx.tools.register(
      sideDataTool(finalized, () => {
        controller.abort()
        return { text: 'fine' }
      }),
    )
    const result = await ctx.tools.execute(call('reader', {}, { signal: controller.signal }))
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    expect(finalized).toEqual([])
  })

  it('an accept that only adds contexts keeps the finalizer', async () => {
    const ctx = await createRuntime()
    const finalized: string[] = []
    ctx.tools.register(sideDataTool(finalized))
    ctx.on('tools/post-execute', async () => ({
      kind: 'accept',
      additionalContexts: [{ source: 'test', text: 'note' }],
    }))
    const result = await ctx.tools.execute(call('reader'))
    expect(finalized).toEqual(['ok'])
    expect(result.additionalContexts).toHaveLength(1)
  })
})
